// First: Zod's schemas, built by the modules below, must not probe for eval (CSP, decision 0053).
import './lib/zod-jitless';
import { startTransition, StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, appRoutes, createAppRouter, loadRouteModules, routerReady } from './app/App';
import { boot } from './app/boot';
import { captureInstallPrompt } from './features/install/install-event';
import { watchPreloadErrors } from './features/new-version/new-version';
import { afterFirstScreen, firstScreenShown } from './lib/after-first-screen';
import { linkInstallAssets } from './lib/branding';
import { restoreDrawnStyles } from './lib/drawn-styles';
import { endPrerender, isPrerendered, keepTypedValues } from './lib/prerendered';
import { getToken } from './lib/storage';
import { isDrawnSignedIn, takeServerState, type ServerState } from './lib/server-state';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// Both events can fire before React renders: listen from the very start.
captureInstallPrompt();
watchPreloadErrors();
// The manifest and the tab's icon: Chrome fetches them as soon as they are linked, so they are
// linked once the first screen is painted (decision 0030). Before the tenant's own icon.
void afterFirstScreen().then(linkInstallAssets);

// The server's HTML of the sign-in screen (decision 0026), hydrated: React takes over its nodes,
// so what was typed and the focus stay. With a stored token the app's first render is not the
// form (a "connecting" spinner, then the home): that HTML is hidden (index.html) and replaced.
const prerendered = isPrerendered(root);
const hydrates = prerendered && getToken() === null;

// A signed-in screen the server drew for this learner (decision 0046): hydrated from the reads
// and the router's data it carries, with the session and the language it was drawn with. A page
// this browser cannot take over (signed out here since, another learner) is dropped, and so is
// the cookie it came by.
const drawnRoot = isDrawnSignedIn(root);
// A sign-in link (`?idT&idU`) names who signs in: the page drawn for the cookie's learner is not taken.
const viaLink = new URLSearchParams(window.location.search).has('idT');
const drawn = drawnRoot && !viaLink ? takeServerState() : null;
if (drawnRoot && !drawn) {
  root.replaceChildren();
  delete root.dataset.prerendered;
  void fetch('/api/users/html-session', { method: 'DELETE' }).catch(() => undefined);
}

/** The server's reads put into the query cache, right before the hydration. */
async function fillCache(state: ServerState): Promise<void> {
  const [{ queryClient }, { hydrate }] = await Promise.all([
    import('./lib/query-client'),
    import('@tanstack/react-query'),
  ]);
  // The reads count as made now, as the screen shows them: the server's clock is not the
  // browser's, and a screen that reads again after a second (the home's lessons) must not
  // read again at once.
  const now = Date.now();
  for (const query of state.queries.queries) query.state.dataUpdatedAt = now;
  hydrate(queryClient, state.queries);
}

// Development only: StrictMode's double renders and effects find impure code; production skips it.
const strict = (app: ReactNode): ReactNode => (import.meta.env.DEV ? <StrictMode>{app}</StrictMode> : app);

/**
 * Runs `done` once React has hydrated the server's screen (a parent's effect runs after its
 * children's). A wrapper, not a sibling: a sibling would change the ids React derives from the
 * tree (useId), and they must match the server's.
 */
function Hydrated({ done, children }: { done: () => void; children: ReactNode }) {
  useEffect(done, [done]);
  return children;
}

const drawnStart = drawn ? { me: drawn.me, lang: document.documentElement.lang } : undefined;
// A mismatch makes React draw the screen anew (focus and typed text lost): say so.
const onRecoverableError = (error: unknown, info: { componentStack?: string }) =>
  console.error('Hydration', error, info.componentStack);

// Issue 11: the first route's code comes while the tenant, the language and the user load, not
// after them. Before `boot` runs, its texts would be the fallback language's: after its first step.
const booted = boot(drawnStart);
const routeModules = loadRouteModules(appRoutes, window.location.pathname).catch(() => undefined);

// The sign-in screen's hydration needs the language and the tenant the server drew with, and the
// route's code; a signed-in screen drawn by the server also the session, its reads and its
// route's data (decision 0046). Any other start renders its first screen once, whole (decision
// 0030): when the router has run its loaders. A failure there is the router's to show.
void booted
  .then(async () => {
    if (drawn || hydrates) await routeModules;
    // Last before the hydration: the reads count as made now (a home whose lessons are a second
    // old reads them again), so the wait for the route's code is not taken from their freshness.
    if (drawn) await fillCache(drawn);
    const router = createAppRouter(drawn?.router);
    if (!drawn && !hydrates) await routerReady(router);
    return router;
  })
  .then((router) => {
    /**
     * The hydration as a transition, as React Router's own browser entry does it: React then
     * hydrates in slices and yields to the browser between them, instead of one long task that
     * holds every tap and key on a cheap phone (Lighthouse: total blocking time). A tap meanwhile
     * hydrates the part it lands on first (React's selective hydration).
     */
    const hydrate = (done: () => void) =>
      startTransition(() => {
        hydrateRoot(root, <Hydrated done={done}>{strict(<App router={router} />)}</Hydrated>, {
          onRecoverableError,
        });
      });
    if (drawn) {
      // The styles the server moved out of the markup (CSP, decision 0053), back where React drew them.
      restoreDrawnStyles(root);
      // The mark goes once React owns the nodes (its effects ran), not when hydration is asked
      // for: until then a key pressed on the server's screen finds no handler, and a journey
      // that waits for the mark to go may then use the screen.
      const done = () => {
        delete root.dataset.prerendered;
        firstScreenShown();
      };
      hydrate(done);
      return;
    }
    if (hydrates) {
      restoreDrawnStyles(root);
      keepTypedValues(root);
      // The server's screen was painted from the HTML: what waits for the first screen may start.
      // (The sign-in form ends the prerender mark once it has hydrated: lib/prerendered.ts.)
      hydrate(() => firstScreenShown());
      return;
    }
    if (prerendered) {
      root.replaceChildren();
      endPrerender(root);
    }
    createRoot(root).render(strict(<App router={router} />));
  });
