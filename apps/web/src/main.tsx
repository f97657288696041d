// First: Zod's schemas, built by the modules below, must not probe for eval (CSP, decision 0053).
import './lib/zod-jitless';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { boot } from './app/boot';
import { captureInstallPrompt } from './features/install/install-event';
import { watchPreloadErrors } from './features/new-version/new-version';
import { afterFirstScreen, firstScreenShown } from './lib/after-first-screen';
import { linkInstallAssets } from './lib/branding';
import { restoreDrawnStyles } from './lib/drawn-styles';
import { endPrerender, isPrerendered, keepTypedValues } from './lib/prerendered';
import { getToken } from './lib/storage';
import { isDrawnSignedIn, takeServerState, type ServerState } from './lib/server-state';
import { firstScreenReady } from './app/first-screen';
import { loadSignedIn } from './app/RouteGate';
import { loadScreen } from './app/routes';
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
// it carries, with the session and the language it was drawn with. A page this browser cannot
// take over (signed out here since, another learner) is dropped, and so is the cookie it came by.
const drawnRoot = isDrawnSignedIn(root);
// A sign-in link (`?idT&idU`) names who signs in: the page drawn for the cookie's learner is not taken.
const viaLink = new URLSearchParams(window.location.search).has('idT');
const drawn = drawnRoot && !viaLink ? takeServerState() : null;
if (drawnRoot && !drawn) {
  root.replaceChildren();
  delete root.dataset.prerendered;
  void fetch('/api/users/html-session', { method: 'DELETE' }).catch(() => undefined);
}

/**
 * The screen's code and the signed-in layer in; resolves to what puts the server's reads into
 * the query cache, called right before the hydration.
 */
async function drawnReady(state: ServerState): Promise<() => void> {
  const [{ queryClient }, { hydrate }] = await Promise.all([
    import('./lib/query-client'),
    import('@tanstack/react-query'),
    loadScreen(window.location.pathname),
    loadSignedIn(),
  ]);
  return () => {
    // The reads count as made now, as the screen shows them: the server's clock is not the
    // browser's, and a screen that reads again after a second (the home's lessons) must not
    // read again at once.
    const now = Date.now();
    for (const query of state.queries.queries) query.state.dataUpdatedAt = now;
    hydrate(queryClient, state.queries);
  };
}

// Development only: StrictMode's double renders and effects find impure code; production skips it.
const app: ReactNode = import.meta.env.DEV ? (
  <StrictMode>
    <App />
  </StrictMode>
) : (
  <App />
);

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

// The sign-in screen's hydration needs the language and the tenant the server drew with, not the
// screen's code: while that code is on its way, React leaves the route's Suspense boundary as the
// server drew it. A signed-in screen drawn by the server waits for its code and the signed-in
// layer, so its whole tree hydrates from the reads in the page (decision 0046).
void Promise.all([boot(drawnStart), drawn ? drawnReady(drawn) : null])
  .then(async ([, fillCache]) => {
    if (fillCache) fillCache();
    // A signed-in first screen renders once, whole (decision 0030), once the language is set.
    else if (!prerendered) await firstScreenReady(window.location.pathname, window.location.search);
  })
  .finally(() => {
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
      hydrateRoot(root, <Hydrated done={done}>{app}</Hydrated>, {
        onRecoverableError: (error, info) => console.error('Hydration', error, info.componentStack),
      });
      return;
    }
    if (hydrates) {
      restoreDrawnStyles(root);
      keepTypedValues(root);
      // The server's screen was painted from the HTML: what waits for the first screen may start.
      // (The sign-in form ends the prerender mark once it has hydrated: lib/prerendered.ts.)
      const done = () => firstScreenShown();
      hydrateRoot(root, <Hydrated done={done}>{app}</Hydrated>, {
        // A mismatch makes React draw the screen anew (focus and typed text lost): say so.
        onRecoverableError: (error, info) => console.error('Hydration', error, info.componentStack),
      });
      return;
    }
    if (prerendered) {
      root.replaceChildren();
      endPrerender(root);
    }
    createRoot(root).render(app);
  });
