import { getReturnUrl, getToken, getUserId, setReturnUrl } from '../lib/storage';
import {
  captureLinkCredentials,
  errorPagePath,
  rememberReturnUrl,
  skipsUserLoad,
  takeReturnUrl,
} from './navigation';

describe('SPEC §2 navigation rules', () => {
  it('stores the idT token and idU user id from the query, then removes them from the address', () => {
    window.history.replaceState(null, '', '/session/42?idT=tok-123&idU=user-9&keep=1');
    expect(captureLinkCredentials(window.location, window.history)).toBe(true);
    expect(getToken()).toBe('tok-123');
    expect(getUserId()).toBe('user-9');
    expect(`${window.location.pathname}${window.location.search}`).toBe('/session/42?keep=1');
  });

  it('leaves storage alone without idT/idU', () => {
    window.history.replaceState(null, '', '/?page=2');
    expect(captureLinkCredentials(window.location, window.history)).toBe(false);
    expect(getToken()).toBeNull();
  });

  it('saves the current path as the return URL before start', () => {
    rememberReturnUrl('/session/42', '?x=1');
    expect(getReturnUrl()).toBe('/session/42?x=1');
  });

  it.each(['/404', '/login'])('clears the return URL on %s', (path) => {
    setReturnUrl('/me');
    rememberReturnUrl(path);
    expect(getReturnUrl()).toBeNull();
  });

  it('after sign-in goes to the saved URL once, else home', () => {
    setReturnUrl('/niveaux');
    expect(takeReturnUrl()).toBe('/niveaux');
    expect(takeReturnUrl()).toBe('/');
  });

  it('never returns to another site or to /login', () => {
    setReturnUrl('//evil.example/x');
    expect(takeReturnUrl()).toBe('/');
    setReturnUrl('/login');
    expect(takeReturnUrl()).toBe('/');
  });

  it('skips the automatic user load only under /reset/', () => {
    expect(skipsUserLoad('/reset/abc')).toBe(true);
    expect(skipsUserLoad('/reset')).toBe(false);
    expect(skipsUserLoad('/')).toBe(false);
  });

  it('builds error page paths, default 404', () => {
    expect(errorPagePath()).toBe('/404');
    expect(errorPagePath(403)).toBe('/403');
  });
});
