import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { getLanguage } from '../lib/i18n';
import { getSession, loadUser } from '../lib/session';
import { getReturnUrl, getToken, setToken } from '../lib/storage';
import { calledUrls, mockApi } from '../test/api-mock';
import { me } from '../test/fixtures';
import { UserMenuTrigger } from './UserMenuTrigger';
import { RouteGate } from './RouteGate';
import type { RouteDef } from './routes';

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

describe('user menu', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    setToken('t');
    mockApi({ 'users/me': { body: me() } });
    await loadUser();
  });

  function renderMenu() {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route path="*" element={<UserMenuTrigger user={getSession().user!} />} />
        </Routes>
        <Where />
      </MemoryRouter>,
    );
  }

  it('offers profile, dashboard, my courses, legal texts and sign out', async () => {
    renderMenu();
    await userEvent.click(screen.getByRole('button', { name: 'User menu Jane Doe' }));
    const items = await screen.findAllByRole('menuitem', {}, { timeout: 15_000 });
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
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Sign out' }, { timeout: 15_000 }));
    expect(screen.getByTestId('where')).toHaveTextContent('/login');
    expect(getToken()).toBeNull();
    expect(getSession().status).toBe('unauthenticated');
  });

  it('signs out on the server too: the session ends there and the HTML cookie goes (decision 0057)', async () => {
    const fetchMock = mockApi({
      'POST users/me/sign-out': { status: 204 },
      'DELETE users/html-session': { status: 204 },
    });
    renderMenu();
    await userEvent.click(screen.getByRole('button', { name: 'User menu Jane Doe' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Sign out' }, { timeout: 15_000 }));
    const calls = fetchMock.mock.calls.map(([input, init]) => ({
      call: `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`,
      bearer: new Headers(init?.headers).get('authorization'),
      keepalive: init?.keepalive,
    }));
    expect(calls).toEqual(
      expect.arrayContaining([
        { call: 'POST /api/users/me/sign-out', bearer: 'Bearer t', keepalive: true },
        { call: 'DELETE /api/users/html-session', bearer: null, keepalive: true },
      ]),
    );
  });

  it('signing out from a lesson page goes to the sign-in screen and forgets the page', async () => {
    const lesson: RouteDef = {
      path: '/session/:id',
      titleKey: 'routes.player',
      access: 'lesson',
    };
    const Trigger = () => <UserMenuTrigger user={getSession().user!} />;
    render(
      <MemoryRouter initialEntries={['/session/l-1']}>
        <Routes>
          <Route
            path="/session/:id"
            element={
              <RouteGate route={lesson} Provider={null}>
                <Trigger />
              </RouteGate>
            }
          />
          <Route path="/login" element={<p>sign-in screen</p>} />
          <Route path="/403" element={<p>restricted</p>} />
        </Routes>
        <Where />
      </MemoryRouter>,
    );
    await userEvent.click(
      await screen.findByRole('button', { name: 'User menu Jane Doe' }, { timeout: 15_000 }),
    );
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Sign out' }, { timeout: 15_000 }));
    await screen.findByText('sign-in screen');
    expect(screen.queryByText('restricted')).toBeNull();
    expect(screen.getByTestId('where')).toHaveTextContent('/login');
    // The next person who signs in on this device does not land on the last learner's lesson.
    expect(getReturnUrl()).toBeNull();
  });

  it('switches the interface language and saves it on the account', async () => {
    const saved = me();
    saved.profile.preferredLocale = 'fr';
    const fetchMock = mockApi({ 'PATCH users/u-1': { body: saved } });
    renderMenu();
    await userEvent.click(screen.getByRole('button', { name: 'User menu Jane Doe' }));
    const english = await screen.findByRole('menuitemradio', { name: /English/ }, { timeout: 15_000 });
    expect(english).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(screen.getByRole('menuitemradio', { name: /Français/ }));
    await vi.waitFor(() => expect(getLanguage()).toBe('fr'));
    await vi.waitFor(() => expect(getSession().user?.profile.preferredLocale).toBe('fr'));
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ preferredLocale: 'fr' });
    expect(calledUrls(fetchMock).some((u) => u.pathname === '/api/users/u-1')).toBe(true);
  });
});

describe('user menu of a teacher (decision 0019)', { timeout: 20_000 }, () => {
  it('offers their classes once the server says they teach, the menu already open', async () => {
    setToken('t');
    let answer: (body: unknown) => void = () => undefined;
    const teaching = new Promise<unknown>((resolve) => {
      answer = resolve;
    });
    mockApi({
      // Another user than the other tests': whether a user teaches is asked once per page load.
      'users/me': { body: { ...me(), _id: 'teacher-1' } },
      'class-users': async () => ({ body: await teaching }),
    });
    await loadUser();
    render(
      <MemoryRouter initialEntries={['/']}>
        <UserMenuTrigger user={getSession().user!} />
      </MemoryRouter>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'User menu Jane Doe' }));
    await screen.findAllByRole('menuitem', {}, { timeout: 15_000 });
    answer({
      data: [{ type: 'class-users', id: 'cu-1', attributes: { role: 'TEACHER' } }],
      meta: { total: 1 },
    });
    await vi.waitFor(() =>
      expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
        'My profile',
        'Dashboard',
        'My courses',
        'My classes (teacher)',
        'Legal notice',
        'Data protection',
        'Sign out',
      ]),
    );
  });
});
