import { render, type ComponentChild } from 'preact';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { boot } from './app/boot';
import { captureInstallPrompt } from './features/install/install-event';
import { watchPreloadErrors } from './features/new-version/new-version';
import { endPrerender, isPrerendered, keepTypedValues } from './lib/prerendered';
import { loadScreen } from './app/routes';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// Both events can fire before React renders: listen from the very start.
captureInstallPrompt();
watchPreloadErrors();

// The server's HTML of the sign-in screen (decision 0026): the app's first render must show the
// same screen over the same nodes, so it waits for that screen's code (asked for early by
// index.html) rather than showing the loading fallback in its place.
const prerendered = isPrerendered(root);
const screenReady = prerendered ? loadScreen(window.location.pathname) : null;

void Promise.all([boot(), screenReady]).finally(() => {
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
  } else createRoot(root).render(app);
});
