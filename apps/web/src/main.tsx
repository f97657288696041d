import { StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { boot } from './app/boot';
import { captureInstallPrompt } from './features/install/install-event';
import { watchPreloadErrors } from './features/new-version/new-version';
import { afterFirstScreen, firstScreenShown } from './lib/after-first-screen';
import { linkInstallAssets } from './lib/branding';
import { endPrerender, isPrerendered, keepTypedValues } from './lib/prerendered';
import { getToken } from './lib/storage';
import { firstScreenReady } from './app/first-screen';
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
// The hydration waits for the screen's code (asked for early by index.html), so its first render
// is the server's screen rather than the loading fallback.
const screenReady = prerendered ? loadScreen(window.location.pathname) : null;

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

void Promise.all([boot(), screenReady])
  // A signed-in first screen renders once, whole (decision 0030), once the language is set.
  .then(() => (prerendered ? undefined : firstScreenReady(window.location.pathname, window.location.search)))
  .finally(() => {
    if (hydrates) {
      keepTypedValues(root);
      // The server's screen was painted from the HTML: what waits for the first screen may start.
      // (The sign-in form ends the prerender mark once it has hydrated: lib/prerendered.ts.)
      const done = () => firstScreenShown();
      hydrateRoot(root, <Hydrated done={done}>{app}</Hydrated>, {
        // A mismatch makes React draw the screen anew (focus and typed text lost): say so.
        onRecoverableError: (error) => console.error('Hydration', error),
      });
      return;
    }
    if (prerendered) {
      root.replaceChildren();
      endPrerender(root);
    }
    createRoot(root).render(app);
  });
