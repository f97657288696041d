/**
 * docs/product.md §2 "Route guard and navigation" rules that run outside React: what happens before
 * start, and where the browser goes on a 401 or after sign-in.
 */
import { SANDBOX_TOKEN } from '../lib/sandbox';
import { getReturnUrl, getToken, getUserId, setReturnUrl, setToken, setUserId } from '../lib/storage';
import { isExpired, readToken } from '../lib/token';

export const LOGIN_PATH = '/login';
export const HOME_PATH = '/';

/** Paths that never become the return URL; opening them forgets it (docs/product.md §2). */
const CLEARS_RETURN_URL = new Set(['/404', LOGIN_PATH]);

/**
 * docs/product.md §2: idT and idU query parameters store a token and a user id. They are then removed
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

/**
 * Issue 29 R3-11: a sign-in link (`?idT&idU`) for another account than the one signed in on this
 * browser. Returns true when it would switch accounts silently: someone is signed in (a token
 * not yet expired) and the link names another user (by `idU`, else by its token's subject).
 */
export function linkSwitchesAccount(location: Location): boolean {
  const params = new URLSearchParams(location.search);
  const token = params.get('idT');
  if (token === null && params.get('idU') === null) return false;
  const current = getToken();
  if (!current || current === SANDBOX_TOKEN || isExpired(current)) return false;
  const signedIn = getUserId() ?? readToken(current)?.sub ?? null;
  const linked = params.get('idU') || readToken(token)?.sub || null;
  return signedIn !== null && linked !== null && linked !== signedIn;
}

/** The learner kept the account signed in: the link's credentials leave the address, unused. */
export function dropLinkCredentials(location: Location, history: History): void {
  const params = new URLSearchParams(location.search);
  params.delete('idT');
  params.delete('idU');
  const search = params.toString();
  history.replaceState(
    history.state,
    '',
    `${location.pathname}${search ? `?${search}` : ''}${location.hash}`,
  );
}

/** docs/product.md §2: before start, save the current path as the return URL, except /404 and /login which clear it. */
export function rememberReturnUrl(pathname: string, search = ''): void {
  if (CLEARS_RETURN_URL.has(pathname)) setReturnUrl(null);
  else setReturnUrl(`${pathname}${search}`);
}

/** docs/product.md §2: paths starting with /reset/ skip the automatic user load. */
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

/** docs/product.md §2 unknown-route helper: in lib/error-page.tsx, where every screen reaches it. */
export { errorPagePath } from '../lib/error-page';
