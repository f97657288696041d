/**
 * Everything SPEC §2 asks to happen "before start": link credentials, return URL, language,
 * tenant context and the automatic user load (skipped under /reset/).
 */
import { pickLocale } from '@parcours/domain/locale';
import { setUnauthorizedHandler } from '../lib/api-client';
import { changeLanguage } from '../lib/i18n';
import { dropCredentials, loadUser, skipUserLoad } from '../lib/session';
import { loadTenant } from '../lib/tenant';
import { setReturnUrl } from '../lib/storage';
import { captureLinkCredentials, LOGIN_PATH, rememberReturnUrl, skipsUserLoad } from './navigation';

/** SPEC §2: a 401 on any call except users/me sends the browser to /login, remembering where it was. */
export function installUnauthorizedRedirect(
  go: (path: string) => void,
  location: Location = window.location,
): void {
  setUnauthorizedHandler(() => {
    if (location.pathname === LOGIN_PATH) return;
    setReturnUrl(`${location.pathname}${location.search}`);
    dropCredentials();
    go(LOGIN_PATH);
  });
}

export async function boot(): Promise<void> {
  const viaLink = captureLinkCredentials(window.location, window.history);
  rememberReturnUrl(window.location.pathname, window.location.search);
  const languageReady = changeLanguage(pickLocale(navigator.languages ?? [navigator.language]));
  const tenantReady = loadTenant();
  // Not awaited: the first screen paints while the user loads, guards show "connecting" meanwhile.
  if (skipsUserLoad(window.location.pathname)) skipUserLoad();
  else void loadUser({ viaLink });
  await Promise.all([languageReady, tenantReady]);
}
