import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLanguage } from '../../../lib/i18n';
import { MemoryRouter } from 'react-router';
import { getSession, setSessionUser, setSignOutGuard } from '../../../lib/session';
import { mockApi } from '../../../test/api-mock';
import { me } from '../../../test/fixtures';
import { SignOutEverywhere } from './SignOutEverywhere';

describe('sign out of every device (issue 29)', () => {
  beforeEach(async () => {
    await changeLanguage('fr');
    setSessionUser(me(), 'jwt-1');
  });
  afterEach(() => setSignOutGuard(null));

  it('sends what waits first, asks the server to end every session, then forgets the user here', async () => {
    const order: string[] = [];
    setSignOutGuard(async () => {
      order.push('guard');
      return true;
    });
    const fetchMock = mockApi({ 'POST users/me/sign-out-everywhere': { status: 204, body: null } });
    fetchMock.mockImplementationOnce(async (input) => {
      order.push(String(input));
      return new Response(null, { status: 204 });
    });
    render(
      <MemoryRouter>
        <SignOutEverywhere />
      </MemoryRouter>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Me déconnecter de tous les appareils' }));
    await waitFor(() => expect(getSession().status).toBe('unauthenticated'));
    expect(order[0]).toBe('guard');
    expect(order[1]).toContain('/api/users/me/sign-out-everywhere');
  });

  it('keeps the session when the learner keeps their waiting answers', async () => {
    setSignOutGuard(async () => false);
    const fetchMock = mockApi({});
    render(
      <MemoryRouter>
        <SignOutEverywhere />
      </MemoryRouter>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Me déconnecter de tous les appareils' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Me déconnecter de tous les appareils' })).toBeEnabled(),
    );
    expect(fetchMock).not.toHaveBeenCalled();
    expect(getSession().status).toBe('authenticated');
  });
});
