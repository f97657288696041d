import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { loadUser } from '../../lib/session';
import { setToken } from '../../lib/storage';
import { mockApi } from '../../test/api-mock';
import { classUsersDoc, me, withTenant } from '../../test/fixtures';
import { loadHomeScreen } from './HomeScreen';

async function renderHome() {
  setToken('token');
  mockApi({
    'users/me': { body: me() },
    'class-users': {
      body: classUsersDoc([
        { id: 'c-1', name: 'With teachers', teachers: ['Julien Moreau'] },
        { id: 'c-2', name: 'Without teachers' },
      ]),
    },
    lessons: { body: { data: [], meta: { total: 0 } } },
  });
  await loadUser();
  const { default: HomeScreen } = await loadHomeScreen();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <HomeScreen />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await screen.findByRole('article', { name: 'With teachers' });
}

describe('home composed with the contact action', () => {
  it('offers to contact the teachers on classes that have some', async () => {
    withTenant();
    await renderHome();
    expect(screen.getByRole('button', { name: 'Contact the trainers With teachers' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Without teachers/ })).not.toBeInTheDocument();
  });

  it('hides it without internal login or allowContactTeacher (SPEC §6)', async () => {
    withTenant({ allowContactTeacher: false });
    await renderHome();
    expect(screen.queryByRole('button', { name: /Contact the trainers/ })).not.toBeInTheDocument();
  });
});
