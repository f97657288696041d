import { screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { apiFetch } from '../lib/api-client';
import { SANDBOX_TOKEN } from '../lib/sandbox';
import { getSession, loadUser } from '../lib/session';
import { setToken } from '../lib/storage';
import { mockApi } from '../test/api-mock';
import { renderRoutes } from '../test/render-routes';

/** docs/product.md §6 sandbox mode (decision 0011): the stored token is the sandbox marker. */
function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

function renderAt(path: string) {
  return renderRoutes(path, <Where />);
}

describe('sandbox mode', () => {
  it('loads no user and never sends the marker as a credential', async () => {
    setToken(SANDBOX_TOKEN);
    const fetchMock = mockApi({ 'contexts/current': { body: { data: null } } });
    await loadUser();
    expect(getSession().status).toBe('unauthenticated');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('users/me'))).toBe(false);
    await apiFetch('contexts/current');
    const [, init] = fetchMock.mock.calls.at(-1)!;
    expect((init?.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('opens /preview without an account, waiting for the back office', async () => {
    setToken(SANDBOX_TOKEN);
    mockApi({});
    await loadUser();
    renderAt('/preview');
    // The first render loads the player's chunk: slow on a busy machine, hence the long waits.
    expect(
      (await screen.findAllByText(/wait 2 seconds/i, undefined, { timeout: 20_000 })).length,
    ).toBeGreaterThan(0);
    expect(screen.getByTestId('where')).toHaveTextContent('/preview');
  }, 30_000);

  it('opens nothing else: the dashboard asks to sign in, lessons and correction are restricted', async () => {
    setToken(SANDBOX_TOKEN);
    mockApi({});
    await loadUser();
    renderAt('/niveaux');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/login'));
  });

  it('keeps /preview for administrators when signed in normally', async () => {
    setToken('token');
    mockApi({
      'users/me': { status: 401, body: { errors: [{ status: '401', code: 'UNAUTHORIZED', title: 'x' }] } },
    });
    await loadUser();
    renderAt('/preview');
    // Not the sandbox: the guard of a lesson route applies. The stored token was refused, so the
    // session ended and the learner signs in again (decision 0044), rather than /403.
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/login'));
  });
});
