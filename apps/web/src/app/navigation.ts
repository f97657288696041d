/**
 * SPEC §2 "Route guard and navigation" rules that run outside React: what happens before
 * start, and where the browser goes on a 401 or after sign-in.
 */
import { getReturnUrl, setReturnUrl, setToken, setUserId } from '../lib/storage';

export const LOGIN_PATH = '/login';
export const HOME_PATH = '/';

/** Paths that never become the return URL; opening them forgets it (SPEC §2). */
const CLEARS_RETURN_URL = new Set(['/404', LOGIN_PATH]);

/**
 * SPEC §2: idT and idU query parameters store a token and a user id. They are then removed
 * from the address bar so a shared or bookmarked URL never carries someone's token.
 * Returns whether a token came from the link.
 */
export function captureLinkCredentials(location: Location, history: History): boolean {
  const params = new URLSearchParams(location.search);
  const token = params.get('idT');
  const userId = params.get('idU');
  if (token === null && userId === null) return false;
  if (token) setToken(token);
  if (userId) setUserId(userId);
  params.delete('idT');
  params.delete('idU');
  const search = params.toString();
  history.replaceState(
    history.state,
    '',
    `${location.pathname}${search ? `?${search}` : ''}${location.hash}`,
  );
  return Boolean(token);
}

/** SPEC §2: before start, save the current path as the return URL, except /404 and /login which clear it. */
export function rememberReturnUrl(pathname: string, search = ''): void {
  if (CLEARS_RETURN_URL.has(pathname)) setReturnUrl(null);
  else setReturnUrl(`${pathname}${search}`);
}

/** SPEC §2: paths starting with /reset/ skip the automatic user load. */
export function skipsUserLoad(pathname: string): boolean {
  return pathname.startsWith('/reset/');
}

/** Where to go after sign-in: the saved return URL (consumed) or home. */
export function takeReturnUrl(): string {
  const saved = getReturnUrl();
  setReturnUrl(null);
  // Only same-app paths: a crafted return URL must not send the learner to another site.
  if (!saved || !saved.startsWith('/') || saved.startsWith('//') || saved === LOGIN_PATH) return HOME_PATH;
  return saved;
}

/** SPEC §2 unknown-route helper: the path of the error page for a code, default 404. */
export function errorPagePath(code: number | string = 404): string {
  return `/${code}`;
}
