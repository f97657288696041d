import { homeKeys } from '../features/home/api/query-keys';
import { queryClient } from '../lib/query-client';
import { dropCredentials, getSession, loadUser } from '../lib/session';
import { setToken, setUserId } from '../lib/storage';
import { calledUrls, mockApi } from '../test/api-mock';
import { classUsersDoc, lesson, me } from '../test/fixtures';
import { firstScreenReady, settledSession } from './first-screen';

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
    // A wait here would outlast the test's own time limit.
    await firstScreenReady(path, '', 60_000);
    expect(calledUrls(fetchMock).map((u) => u.pathname)).not.toContain('/api/lessons');
  });

  it('does not wait without a stored token', async () => {
    const fetchMock = api();
    await firstScreenReady('/', '', 60_000);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("waits for the user, then puts the home's reads in the query cache before the home renders", async () => {
    setToken('t');
    setUserId('u-1');
    let userIn: () => void = () => undefined;
    const fetchMock = api({ userLoad: new Promise<void>((resolve) => (userIn = resolve)) });
    void loadUser();
    let ready = false;
    const waiting = firstScreenReady('/', '', 5_000).then(() => (ready = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ready).toBe(false);
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
      // A wait here would outlast the test's own time limit.
      await firstScreenReady('/', '', 60_000);
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
    await firstScreenReady('/', '', 50);
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
