import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { getSession, loadUser } from '../lib/session';
import { getToken, setToken } from '../lib/storage';
import { mockApi } from '../test/api-mock';
import { me } from '../test/fixtures';
import { UserMenu } from './UserMenu';

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

describe('user menu', () => {
  beforeEach(async () => {
    setToken('t');
    mockApi({ 'users/me': { body: me() } });
    await loadUser();
  });

  function renderMenu() {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route path="*" element={<UserMenu user={getSession().user!} />} />
        </Routes>
        <Where />
      </MemoryRouter>,
    );
  }

  it('offers profile, dashboard, my courses, legal texts and sign out', async () => {
    renderMenu();
    await userEvent.click(screen.getByRole('button', { name: 'User menu Jane Doe' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'My profile',
      'Dashboard',
      'My courses',
      'Legal notice',
      'Data protection',
      'Sign out',
    ]);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Legal notice' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/legal/mentions');
  });

  it('signs out: clears stored data and goes to /login', async () => {
    renderMenu();
    await userEvent.click(screen.getByRole('button', { name: 'User menu Jane Doe' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/login');
    expect(getToken()).toBeNull();
    expect(getSession().status).toBe('unauthenticated');
  });
});
