/**
 * Issue 11 (decision 0030): a signed-in first screen renders once, whole.
 *
 * Rendered as soon as the tenant and the texts were in, the home used to show "connecting",
 * then suspend on the query library, then on its own code, then render again as each read came:
 * six renders and as many frames on a cheap phone's busy main thread before its content showed,
 * although index.html had asked for all of it at once (decision 0024). The start now waits for
 * the user, the signed-in layer and the screen's code, all already on their way, and renders
 * the screen with them. The wait is bounded: past it, the app renders as before, with its
 * "connecting" and loading states.
 */
import { isSandbox } from '../lib/sandbox';
import { getSession, subscribeSession, type SessionState } from '../lib/session';
import { getToken } from '../lib/storage';
import { loadSignedIn } from './RouteGate';
import { loadScreen, routeOf } from './routes';

/** Longest wait before rendering anyway (a slow user load, a stalled chunk). */
export const FIRST_SCREEN_WAIT_MS = 2_000;

/** The session once the user load has ended (authenticated or not). */
export function settledSession(): Promise<SessionState> {
  return new Promise((resolve) => {
    const check = () => {
      const session = getSession();
      if (session.status === 'connecting') return false;
      resolve(session);
      return true;
    };
    if (check()) return;
    const stop = subscribeSession(() => {
      if (check()) stop();
    });
  });
}

/**
 * Resolves when the signed-in first screen of `pathname` can render whole (its reads in the query
 * cache when the route says which: `RouteDef.prefetch`), or after `waitMs`.
 */
export async function firstScreenReady(
  pathname: string,
  search: string,
  waitMs = FIRST_SCREEN_WAIT_MS,
): Promise<void> {
  const route = routeOf(pathname);
  // Public screens, redirects and starts without a stored token have nothing to wait for.
  if (!route || route.access === 'public' || route.redirectTo || getToken() === null || isSandbox()) return;
  // Offline, a user load without a kept copy waits for the network's return: nothing to wait for.
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
  const ready = settledSession().then((session) => {
    const userId = session.user?._id;
    if (session.status !== 'authenticated' || !userId) return null;
    // Missing required data: the gate comes first (RouteGate), not the screen.
    if (session.user?.profile.needsRequiredDatas) return loadSignedIn();
    return Promise.all([
      loadSignedIn(),
      loadScreen(pathname),
      route.prefetch?.({ userId, pathname, search }),
    ]);
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
  });
  // A failure is the router's to show, as before: here it only ends the wait.
  await Promise.race([ready.catch(() => undefined), late]);
  clearTimeout(timer);
}
