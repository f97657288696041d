import { mockApi } from '../test/api-mock';
import { me } from '../test/fixtures';
import { endSession, getSession, loadUser, onForget } from './session';
import { getStoredContext, getToken, setStoredContext, setToken, setUserId } from './storage';

describe('session (SPEC §4)', () => {
  it('is unauthenticated without a token, without calling the API', async () => {
    const fetchMock = mockApi({});
    await loadUser();
    expect(getSession().status).toBe('unauthenticated');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('becomes authenticated with the user from users/me', async () => {
    setToken('t');
    mockApi({ 'users/me': { body: me() } });
    await loadUser();
    expect(getSession()).toMatchObject({ status: 'authenticated', user: { _id: 'u-1' } });
  });

  it.each([
    [403, 'linkExpired'],
    [401, 'linkInvalid'],
    [500, 'reconnect'],
  ] as const)('explains a failed load from a link (%s → %s) and logs out', async (status, notice) => {
    setToken('t');
    mockApi({
      'users/me': { status, body: { errors: [{ status: String(status), code: 'UNDEFINED', title: 'x' }] } },
    });
    await loadUser({ viaLink: true });
    expect(getSession()).toMatchObject({ status: 'unauthenticated', notice });
    expect(getToken()).toBeNull();
  });

  it('refuses a token whose user differs from the stored user id', async () => {
    setToken('t');
    setUserId('someone-else');
    mockApi({ 'users/me': { body: me('public', 'u-1') } });
    await loadUser();
    expect(getSession()).toMatchObject({ status: 'unauthenticated', notice: 'accountMismatch' });
  });

  it('logout clears everything but the context', () => {
    setToken('t');
    setStoredContext('{"id":"ctx"}');
    window.sessionStorage.setItem('parcours.activeLesson', '{"classId":"c"}');
    endSession();
    expect(getToken()).toBeNull();
    expect(window.sessionStorage.length).toBe(0);
    expect(getStoredContext()).toBe('{"id":"ctx"}');
  });

  it('offline with no cached user: stays connecting, keeps the token, and loads the user once online (issue 12)', async () => {
    setToken('t');
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const fetchMock = mockApi({});
    fetchMock.mockImplementation(async () => {
      throw new TypeError('Failed to fetch');
    });
    await loadUser();
    expect(getSession().status).toBe('connecting');
    expect(getToken()).toBe('t');
    online.mockReturnValue(true);
    mockApi({ 'users/me': { body: me() } });
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(getSession().status).toBe('authenticated'));
    online.mockRestore();
  });

  it('signing out runs the offline hooks (the device lesson store and queue, decision 0013)', () => {
    const hook = vi.fn(async () => undefined);
    onForget(hook);
    endSession();
    expect(hook).toHaveBeenCalledOnce();
  });
});
