import { announceNewVersion } from '../features/new-version/new-version';
import { afterFirstScreen } from './after-first-screen';
import { apiBase } from './api-base';
import { API_ACCEPT } from './query-string';
import { getToken } from './storage';

/**
 * Issue 26: the reads an offline start needs (the tenant's context, the learner), asked for
 * again once the first worker controls the tab, so that the worker keeps them in the very session
 * it was installed in. The app's own reads went out before it was there: a reload with the
 * network gone then waited for them forever on "Connexion en cours…". users/me is kept under the
 * learner who owns the device's copies (decision 0045), the context for everyone.
 */
export async function keepStartReads(fetchImpl: typeof fetch = fetch): Promise<void> {
  const token = getToken();
  const base = apiBase();
  // `noCache=keep` tells these apart from the app's own reads (the worker keys both without it).
  await fetchImpl(`${base}/contexts/current?noCache=keep`, { headers: { Accept: API_ACCEPT } });
  if (token)
    await fetchImpl(`${base}/users/me?noCache=keep`, {
      headers: { Accept: API_ACCEPT, Authorization: `Bearer ${token}` },
    });
}

/** When the first worker claims this tab, keep the start reads (a controlled tab's went through it). */
function keepStartReadsWhenControlled(): void {
  const container = navigator.serviceWorker;
  if (container.controller) return;
  container.addEventListener('controllerchange', () => void keepStartReads().catch(() => undefined), {
    once: true,
  });
}

let requested = false;

/**
 * Registers the service worker once a learner is signed in, after the first screen is shown and
 * the browser is idle (lib/after-first-screen.ts). Offline use matters for learning screens, not for the sign-in form (which
 * needs the network anyway), so its script and Workbox's precache downloads never weigh on
 * /login's first load nor compete with a first screen on a slow connection. Idempotent.
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
        keepStartReadsWhenControlled();
      })
      .catch((error: unknown) => console.warn('Service worker not registered', error));
  };
  void afterFirstScreen().then(register);
}
