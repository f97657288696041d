/**
 * The browser's data router (decision 0060): a page the server drew hydrates with the loader data
 * it carries, so no loader runs again and no read goes out; any other start runs the first
 * screen's loaders, and the router says when they are done.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setToken } from '../lib/storage';
import { mockApi } from '../test/api-mock';
import { appRoutes, createAppRouter, loadRouteModules, routerReady } from './App';

afterEach(() => window.history.replaceState(null, '', '/'));

describe("the browser's router", () => {
  it("hydrates a drawn page with the server's loader data: ready at once, nothing read again", async () => {
    setToken('token');
    const fetchMock = mockApi({});
    window.history.replaceState(null, '', '/');
    await loadRouteModules(appRoutes, '/');
    const router = createAppRouter({ loaderData: { '/': null }, actionData: null, errors: null });
    expect(router.state.initialized).toBe(true);
    expect(router.state.matches.map((match) => match.route.id)).toEqual(['root', '/']);
    await routerReady(router);
    expect(fetchMock).not.toHaveBeenCalled();
    router.dispose();
  });

  it('runs the loaders of any other start, and is ready once they are done', async () => {
    setToken(null);
    mockApi({});
    window.history.replaceState(null, '', '/legal/mentions');
    const router = createAppRouter();
    // A route module still to load: not ready yet.
    expect(router.state.initialized).toBe(false);
    await routerReady(router);
    expect(router.state.initialized).toBe(true);
    expect(router.state.location.pathname).toBe('/legal/mentions');
    router.dispose();
  }, 30_000);
});
