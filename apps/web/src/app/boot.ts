/**
 * Everything docs/product.md §2 asks to happen "before start": link credentials, return URL, language,
 * tenant context and the automatic user load (skipped under /reset/).
 */
import { pickLocale } from '@parcours/domain/locale';
import { setUnauthorizedHandler } from '../lib/api-client';
import { changeLanguage, expectScreenTexts, getLanguage, loadScreenTexts, t } from '../lib/i18n';
import type { MeResponse } from '@parcours/domain/entities';
import {
  endExpiredSession,
  getSession,
  leaveForLink,
  loadUser,
  resumeForgetting,
  setSessionUser,
  skipUserLoad,
  subscribeSession,
} from '../lib/session';
import { loadTenant } from '../lib/tenant';
import { getToken } from '../lib/storage';
import { startTokenRenewal } from '../lib/token-renewal';
import {
  captureLinkCredentials,
  dropLinkCredentials,
  linkSwitchesAccount,
  LOGIN_PATH,
  rememberReturnUrl,
  skipsUserLoad,
} from './navigation';
import { routeEntryOf } from '@parcours/domain/routes';

/**
 * docs/product.md §2: a 401 on any call except users/me ends the session and sends the browser to /login,
 * remembering where it was (decision 0044). Once: the first 401 ends the session and drops the
 * token, so the 401s of the other calls in flight (sent with that token) are ignored, and the
 * screens that asked are gone with the query cache — no loop, whatever the number of calls.
 */
export function installUnauthorizedRedirect(
  go: (path: string) => void,
  location: Location = window.location,
): void {
  setUnauthorizedHandler((_path, token) => {
    // A call of a session already over (or of a token already renewed): nothing to end.
    if (token !== getToken()) return;
    const onLogin = location.pathname === LOGIN_PATH;
    if (!endExpiredSession(onLogin ? null : `${location.pathname}${location.search}`)) return;
    if (!onLogin) go(LOGIN_PATH);
  });
}

/**
 * Issue 12: a language the user chose (user menu, saved as preferredLocale) wins over the
 * browser's once the user is known; someone who never chose keeps the browser's (docs/product.md §1).
 */
export function followUserLanguage(): () => void {
  let applied: string | null = null;
  return subscribeSession(() => {
    const lang = getSession().user?.profile.preferredLocale ?? null;
    if (!lang || lang === applied) return;
    applied = lang;
    if (lang !== getLanguage()) void changeLanguage(lang);
  });
}

/** A start on a signed-in screen (not a public one) with a stored token or a sign-in link. */
function startsSignedIn(pathname: string, viaLink: boolean): boolean {
  const route = routeEntryOf(pathname);
  return Boolean(route && route.access !== 'public' && (viaLink || getToken() !== null));
}

/**
 * `drawn`: the page is a signed-in screen the server drew (decision 0046), for this user and in
 * this language: the app starts from them, so its first render is the server's screen.
 */
export async function boot(drawn?: { me: MeResponse; lang: string }): Promise<void> {
  // Before any session starts: what an earlier page left half-cleared goes first (0045).
  resumeForgetting();
  followUserLanguage();
  startTokenRenewal();
  const linkToken = new URLSearchParams(window.location.search).get('idT');
  // A start on a signed-in screen with a token: the texts come whole, in one file (issue 11).
  const signedInStart = startsSignedIn(window.location.pathname, Boolean(linkToken));
  if (signedInStart) expectScreenTexts();
  const languageReady = changeLanguage(
    drawn ? pickLocale([drawn.lang]) : pickLocale(navigator.languages ?? [navigator.language]),
  );
  // Issue 29 R3-11: a link for another account asks before the signed-in one is left (its
  // answers waiting on the device stay theirs, decision 0045).
  if (linkSwitchesAccount(window.location)) {
    await languageReady.catch(() => undefined);
    if (window.confirm(t('session.switchAccount'))) leaveForLink();
    else dropLinkCredentials(window.location, window.history);
  }
  const viaLink = captureLinkCredentials(window.location, window.history);
  rememberReturnUrl(window.location.pathname, window.location.search);
  const tenantReady = loadTenant();
  // Not awaited: the first screen paints while the user loads, guards show "connecting" meanwhile.
  if (drawn) setSessionUser(drawn.me);
  else if (skipsUserLoad(window.location.pathname)) skipUserLoad();
  else void loadUser({ viaLink });
  // Issue 11: the signed-in screens' texts come while all this loads, not after (the route's
  // code is asked for by main.tsx meanwhile).
  if (signedInStart) void languageReady.then(loadScreenTexts).catch(() => undefined);
  await Promise.all([languageReady, tenantReady]);
}
