import { homeKeys } from '../features/home/api/query-keys';
import { queryClient } from '../lib/query-client';
import { dropCredentials, getSession, loadUser } from '../lib/session';
import { setToken, setUserId } from '../lib/storage';
import { calledUrls, mockApi } from '../test/api-mock';
import { classUsersDoc, lesson, me } from '../test/fixtures';
import { firstScreenReady, settledSession } from './first-screen';

/**
 * Whether `promise` is settled once the promises already under way have run (no clock: a wait on
 * a timer or on a request that never comes leaves it pending).
 */
async function settlesAtOnce(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
  return settled;
}

// Decision 0030: a signed-in first screen renders once, whole, after a bounded wait.
describe('firstScreenReady', () => {
  afterEach(() => {
    queryClient.clear();
    dropCredentials();
  });

  function api(options: { userLoad?: Promise<void> } = {}) {
    return mockApi({
      'users/me': async () => {
        await options.userLoad;
        return { body: me('public', 'u-1') };
      },
      'class-users': { body: classUsersDoc([{ id: 'c1', name: 'Class 1' }]) },
      lessons: { body: { data: [lesson('l-1', 'c1', 'p1-k1', 'k1')], meta: { total: 1 } } },
    });
  }

  it.each([
    ['/login', 'a public screen'],
    ['/legal/mentions', 'a public screen'],
    ['/tableau-de-bord', 'a redirect'],
  ])('does not wait on %s (%s)', async (path) => {
    setToken('t');
    const fetchMock = api({ userLoad: new Promise(() => undefined) });
    void loadUser();
    expect(await settlesAtOnce(firstScreenReady(path, '', 60_000))).toBe(true);
    expect(calledUrls(fetchMock).map((u) => u.pathname)).not.toContain('/api/lessons');
  });

  it('does not wait without a stored token', async () => {
    const fetchMock = api();
    expect(await settlesAtOnce(firstScreenReady('/', '', 60_000))).toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("waits for the user, then puts the home's reads in the query cache before the home renders", async () => {
    setToken('t');
    setUserId('u-1');
    let userIn: () => void = () => undefined;
    const fetchMock = api({ userLoad: new Promise<void>((resolve) => (userIn = resolve)) });
    void loadUser();
    const waiting = firstScreenReady('/', '', 5_000);
    expect(await settlesAtOnce(waiting)).toBe(false);
    userIn();
    await waiting;
    expect(getSession().status).toBe('authenticated');
    expect(queryClient.getQueryData(homeKeys.lessons('u-1'))).toHaveLength(1);
    expect(queryClient.getQueryData(homeKeys.classUsers(false))).toBeDefined();
    // The period filter of the address chooses the memberships read.
    expect(queryClient.getQueryData(homeKeys.classUsers(true))).toBeUndefined();
    expect(calledUrls(fetchMock).filter((u) => u.pathname === '/api/lessons')).toHaveLength(1);
  });

  it('does not wait offline (the user load waits for the network)', async () => {
    setToken('t');
    api({ userLoad: new Promise(() => undefined) });
    void loadUser();
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      expect(await settlesAtOnce(firstScreenReady('/', '', 60_000))).toBe(true);
    } finally {
      online.mockRestore();
    }
  });

  it('reads the past memberships for ?period=past', async () => {
    setToken('t');
    api();
    void loadUser();
    await firstScreenReady('/', '?period=past', 5_000);
    expect(queryClient.getQueryData(homeKeys.classUsers(true))).toBeDefined();
  });

  it('renders anyway once the wait is over (a user load that never ends)', async () => {
    setToken('t');
    api({ userLoad: new Promise(() => undefined) });
    void loadUser();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const waiting = firstScreenReady('/', '', 50);
      expect(await settlesAtOnce(waiting)).toBe(false);
      await vi.advanceTimersByTimeAsync(50);
      expect(await settlesAtOnce(waiting)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    expect(getSession().status).toBe('connecting');
  });

  it('reads nothing for a refused token', async () => {
    setToken('expired');
    const fetchMock = mockApi({
      'users/me': { status: 401, body: { errors: [{ status: '401', code: 'UNAUTHORIZED', title: 'x' }] } },
    });
    void loadUser();
    await firstScreenReady('/', '', 5_000);
    expect((await settledSession()).status).toBe('unauthenticated');
    expect(calledUrls(fetchMock).map((u) => u.pathname)).toEqual(['/api/users/me']);
  });
});
