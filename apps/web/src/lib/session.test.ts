import { mockApi } from '../test/api-mock';
import { fakeToken, me } from '../test/fixtures';
import { endExpiredSession, endSession, getSession, loadUser, onForget, startSession } from './session';
import {
  getReturnUrl,
  getStoredContext,
  getToken,
  setReturnUrl,
  setStoredContext,
  setToken,
  setUserId,
} from './storage';

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

describe('a session that ends by itself (decision 0044)', () => {
  it('ends at start, without asking the server, when the token expired since the last visit', async () => {
    setToken(fakeToken({ sub: 'u-1', exp: Math.floor(Date.now() / 1000) - 60 }));
    setReturnUrl('/session/l-1');
    const fetchMock = mockApi({ 'users/me': { body: me() } });
    await loadUser();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(getSession()).toMatchObject({ status: 'unauthenticated', notice: 'sessionEnded' });
    expect(getToken()).toBeNull();
    // After sign-in the learner comes back where they were.
    expect(getReturnUrl()).toBe('/session/l-1');
  });

  it('ends when the server refuses the token at start (revoked while away)', async () => {
    setToken('revoked');
    mockApi({
      'users/me': { status: 401, body: { errors: [{ status: '401', code: 'UNAUTHORIZED', title: 'x' }] } },
    });
    await loadUser();
    expect(getSession()).toMatchObject({ status: 'unauthenticated', notice: 'sessionEnded' });
    expect(getToken()).toBeNull();
  });

  it('ends once: the second call changes nothing and clears nothing more', async () => {
    setToken('t');
    mockApi({ 'users/me': { body: me() } });
    await loadUser();
    const hook = vi.fn(async () => undefined);
    onForget(hook);
    expect(endExpiredSession('/niveaux')).toBe(true);
    expect(endExpiredSession('/elsewhere')).toBe(false);
    expect(hook).toHaveBeenCalledTimes(1);
    expect(hook).toHaveBeenCalledWith('ended');
    expect(getReturnUrl()).toBe('/niveaux');
    expect(getSession().notice).toBe('sessionEnded');
  });
});

describe('the next learner of the device (decision 0045)', () => {
  it('signs in only once what the ended session kept is gone from the device', async () => {
    setToken(fakeToken({ sub: 'u-1', exp: Math.floor(Date.now() / 1000) - 60 }));
    const fetchMock = mockApi({ 'users/me': { body: me('public', 'u-2') } });
    // The device's clearing (its store, the worker's caches) takes a moment, as it does on a phone.
    let callsWhenCleared = -1;
    onForget(
      () =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            callsWhenCleared = fetchMock.mock.calls.length;
            resolve();
          }, 0),
        ),
    );
    await loadUser();
    expect(getSession().notice).toBe('sessionEnded');
    await startSession(fakeToken({ sub: 'u-2', exp: Math.floor(Date.now() / 1000) + 3600 }), 'u-2');
    expect(getSession()).toMatchObject({ status: 'authenticated', user: { _id: 'u-2' } });
    // Nothing of the new session was read before the last one's copies were gone.
    expect(callsWhenCleared).toBe(0);
  });
});
