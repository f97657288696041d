import { apiFetch, setUnauthorizedHandler } from '../lib/api-client';
import { getReturnUrl, getToken, setToken } from '../lib/storage';
import { mockApi } from '../test/api-mock';
import { getLanguage } from '../lib/i18n';
import { loadUser } from '../lib/session';
import { me } from '../test/fixtures';
import { followUserLanguage, installUnauthorizedRedirect } from './boot';

describe('401 → /login (SPEC §2)', () => {
  afterEach(() => setUnauthorizedHandler(null));

  it('sends the browser to /login, forgetting the token and remembering the page', async () => {
    setToken('expired');
    window.history.replaceState(null, '', '/niveaux?x=1');
    const go = vi.fn();
    installUnauthorizedRedirect(go);
    mockApi({
      lessons: { status: 401, body: { errors: [{ status: '401', code: 'UNAUTHORIZED', title: 'x' }] } },
    });
    await apiFetch('lessons').catch(() => undefined);
    expect(go).toHaveBeenCalledWith('/login');
    expect(getToken()).toBeNull();
    expect(getReturnUrl()).toBe('/niveaux?x=1');
  });

  it('does nothing for users/me', async () => {
    const go = vi.fn();
    installUnauthorizedRedirect(go);
    mockApi({
      'users/me': { status: 401, body: { errors: [{ status: '401', code: 'UNAUTHORIZED', title: 'x' }] } },
    });
    await apiFetch('users/me').catch(() => undefined);
    expect(go).not.toHaveBeenCalled();
  });
});

describe("the user's language (issue 12)", () => {
  it('follows the language the user chose once they are known, and keeps the browser’s otherwise', async () => {
    const stop = followUserLanguage();
    try {
      setToken('t');
      const anon = me();
      mockApi({ 'users/me': { body: anon } });
      await loadUser();
      expect(getLanguage()).toBe('en');
      const chose = me();
      chose.profile.preferredLocale = 'fr';
      mockApi({ 'users/me': { body: chose } });
      await loadUser();
      await vi.waitFor(() => expect(getLanguage()).toBe('fr'));
    } finally {
      stop();
    }
  });
});
