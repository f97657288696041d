import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { notFoundRoute, screenRoutes } from '../app/routes';

/**
 * The app's route objects (app/routes.tsx) in a memory data router at `path`, as the browser's
 * router runs them (lazy route modules, loaders), without the shell; `extra` renders beside the
 * route's screen, inside the router.
 */
export function renderRoutes(path: string, extra?: ReactNode) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <Outlet />
            {extra}
          </>
        ),
        children: [...screenRoutes, notFoundRoute],
      },
    ],
    { initialEntries: [path] },
  );
  return { router, ...render(<RouterProvider router={router} />) };
}
