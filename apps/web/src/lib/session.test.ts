import { mockApi } from '../test/api-mock';
import { me } from '../test/fixtures';
import { endSession, getSession, loadUser } from './session';
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
});
