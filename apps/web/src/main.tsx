import { render, type ComponentChild } from 'preact';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { boot } from './app/boot';
import { captureInstallPrompt } from './features/install/install-event';
import { watchPreloadErrors } from './features/new-version/new-version';
import { afterFirstScreen, firstScreenShown } from './lib/after-first-screen';
import { linkInstallAssets } from './lib/branding';
import { endPrerender, isPrerendered, keepTypedValues } from './lib/prerendered';
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

// The server's HTML of the sign-in screen (decision 0026): the app's first render must show the
// same screen over the same nodes, so it waits for that screen's code (asked for early by
// index.html) rather than showing the loading fallback in its place.
const prerendered = isPrerendered(root);
const screenReady = prerendered ? loadScreen(window.location.pathname) : null;

void Promise.all([boot(), screenReady])
  // A signed-in first screen renders once, whole (decision 0030), once the language is set.
  .then(() => (prerendered ? undefined : firstScreenReady(window.location.pathname, window.location.search)))
  .finally(() => {
    const app = (
      <StrictMode>
        <App />
      </StrictMode>
    );
    if (prerendered) {
      keepTypedValues(root);
      // Preact's own render, not React's createRoot (which empties the container first, as React
      // does): it reuses the server's nodes and corrects what differs, so focus and text stay.
      render(app as unknown as ComponentChild, root);
      endPrerender(root);
      // The server's screen was painted from the HTML: what waits for the first screen may start.
      firstScreenShown();
    } else createRoot(root).render(app);
  });
