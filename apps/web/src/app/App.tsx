import { useEffect } from 'react';
import {
  createBrowserRouter,
  matchRoutes,
  Outlet,
  useLocation,
  useNavigate,
  type DataRouter,
  type HydrationState,
  type RouteObject,
} from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { installUnauthorizedRedirect } from './boot';
import { notFoundRoute, screenRoutes } from './routes';
import { Shell } from './Shell';

/** Connects the API client's 401 rule to the router (docs/product.md §2: back to /login). */
function UnauthorizedRedirect() {
  const navigate = useNavigate();
  useEffect(() => installUnauthorizedRedirect((path) => void navigate(path)), [navigate]);
  return null;
}

/**
 * The layout of every route: the shell around the route's screen. A new address is a new screen
 * (keyed by the pathname): a player page after another starts from its own state, as it did when
 * an error boundary keyed by the pathname wrapped the routes.
 */
export function AppLayout() {
  const { pathname } = useLocation();
  return (
    <>
      <UnauthorizedRedirect />
      <Shell>
        <Outlet key={pathname} />
      </Shell>
    </>
  );
}

/** The app's routes, for the browser's router and the server's static handler alike (decision 0060). */
export const appRoutes: RouteObject[] = [
  { id: 'root', element: <AppLayout />, children: [...screenRoutes, notFoundRoute] },
];

/**
 * The route modules of `pathname` loaded and put on their routes, before a hydration: the
 * router then renders the server's screen at once instead of its fallback (React Router's lazy
 * routes with server rendering).
 */
export async function loadRouteModules(routes: RouteObject[], pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const module = await route.lazy();
      Object.assign(route, { ...module, lazy: undefined });
    }),
  );
}

/**
 * The browser's router. With a signed-in page's hydration data (decision 0046) its loaders do not
 * run again; otherwise they run for the first screen.
 */
export function createAppRouter(hydrationData?: HydrationState): DataRouter {
  return createBrowserRouter(appRoutes, hydrationData ? { hydrationData } : {});
}

/** Resolves once the router has loaded its first screen's code and data (its loaders' waits are bounded). */
export function routerReady(router: DataRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

export function App({ router }: { router: DataRouter }) {
  return <RouterProvider router={router} />;
}
