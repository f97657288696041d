import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { boot } from './app/boot';
import { captureInstallPrompt } from './features/install/install-event';
import { watchPreloadErrors } from './features/new-version/new-version';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// Both events can fire before React renders: listen from the very start.
captureInstallPrompt();
watchPreloadErrors();

void boot().finally(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
