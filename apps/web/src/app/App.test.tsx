import { screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { loadUser } from '../lib/session';
import { getReturnUrl, setToken } from '../lib/storage';
import { mockApi } from '../test/api-mock';
import { me, withTenant } from '../test/fixtures';
import { renderRoutes } from '../test/render-routes';

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

function renderAt(path: string) {
  return renderRoutes(path, <Where />);
}

async function signIn() {
  setToken('token');
  mockApi({
    'users/me': { body: me('public') },
    'class-users': { body: { data: [], included: [], meta: { total: 0 } } },
    lessons: { body: { data: [], meta: { total: 0 } } },
  });
  await loadUser();
}

describe('route guard (SPEC §2)', () => {
  it('sends a signed-out visitor to /login and remembers where they were going', async () => {
    renderAt('/niveaux?tab=1');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/login'));
    expect(getReturnUrl()).toBe('/niveaux?tab=1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
  });

  it('sends lesson routes to /403 instead', async () => {
    renderAt('/session/42');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/403'));
    expect(await screen.findByRole('heading', { name: 'Restricted access' })).toBeInTheDocument();
    expect(getReturnUrl()).toBe('/session/42');
  });

  it('lets a user of an allowed domain in', async () => {
    await signIn();
    renderAt('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'My courses' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
  });

  it('redirects /tableau-de-bord to /niveaux', async () => {
    await signIn();
    renderAt('/tableau-de-bord');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/niveaux'));
    // The dashboard shell, on its levels tab (its own chunk: slow to load on a busy machine).
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    // jsdom has no wide screen: the tabs are offered as a select, on Levels.
    expect(screen.getByRole('combobox')).toHaveValue('/niveaux');
  }, 30_000);

  it('sends unknown paths to /404', async () => {
    renderAt('/no/such/page');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/404'));
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute('href', '/');
  });

  it('titles the page with the product name and the translated route name', async () => {
    withTenant({}, 'Acme Academy');
    renderAt('/legal/mentions');
    await waitFor(() => expect(document.title).toBe('Acme Academy – Legal notice'));
  });

  it("uses 'Learner Space' / 'Espace Apprenant' when there is no product name", async () => {
    renderAt('/404');
    await waitFor(() => expect(document.title).toBe('Learner Space – Page not found'));
  });
});
