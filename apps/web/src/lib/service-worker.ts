import { announceNewVersion } from '../features/new-version/new-version';
import { afterFirstScreen } from './after-first-screen';

let requested = false;

/**
 * Registers the service worker once a learner is signed in, after the first screen is shown and
 * the browser is idle (lib/after-first-screen.ts). Offline use matters for learning screens, not for the sign-in form (which
 * needs the network anyway), so its script and Workbox's precache downloads never weigh on
 * /login (100 kB budget) nor compete with a first screen on a slow connection. Idempotent.
 * A newer build waits until the learner accepts the "new version" banner's reload.
 */
export function registerServiceWorkerLater(): void {
  if (requested || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  requested = true;
  const register = () => {
    void import('virtual:pwa-register')
      .then(({ registerSW }) => {
        const updateSW = registerSW({
          immediate: true,
          onNeedRefresh: () => announceNewVersion(() => void updateSW(true)),
        });
      })
      .catch((error: unknown) => console.warn('Service worker not registered', error));
  };
  void afterFirstScreen().then(register);
}
