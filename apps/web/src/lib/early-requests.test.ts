import { mockApi } from '../test/api-mock';
import { ApiError, apiFetch, setUnauthorizedHandler } from './api-client';
import {
  EARLY_GLOBAL,
  EARLY_MAX_AGE_MS,
  sameRequest,
  settleEarly,
  takeEarlyResponse,
  type EarlyEntry,
} from './early-requests';
import { setToken } from './storage';

const T0 = 1_000_000;
const answer = (body: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
const entry = (url: string, token: string | null = 'tok', at = T0, response = answer({ from: 'early' })) =>
  ({ url, token, at, response }) satisfies EarlyEntry;

describe('the matching rule of an early request', () => {
  it.each([
    ['/api/users/me', '/api/users/me', true],
    ['/api/users/me', '/api/contexts/current', false],
    // The base is part of the path: a tenant's own API base never takes a default-base answer.
    ['/api/users/me', '/tenant-api/users/me', false],
    ['/api/class-users?a=1&b=2', '/api/class-users?b=2&a=1', true],
    ['/api/class-users?a=1&b=2', '/api/class-users?a=1', false],
    ['/api/class-users?a=1', '/api/class-users?a=1&b=2', false],
    ['/api/class-users?a=1', '/api/class-users?a=2', false],
    ['/api/lessons?filter[userId]=u1', '/api/lessons?filter%5BuserId%5D=u1', true],
    ['/api/lessons?filter[userId]=u1', '/api/lessons?filter[userId]=u2', false],
    ['/api/x?include=a,b', '/api/x?include=a%2Cb', true],
    // noCache only defeats HTTP caches: any value, but on both sides.
    ['/api/lessons/l/pages/current?noCache=1', '/api/lessons/l/pages/current?noCache=2', true],
    ['/api/lessons/l/pages/current?noCache=1', '/api/lessons/l/pages/current', false],
    ['/api/lessons/l/pages/current?noCache=1&pageId=p', '/api/lessons/l/pages/current?noCache=2', false],
    [
      '/api/lessons/l/pages/current?noCache=1&pageId=p',
      '/api/lessons/l/pages/current?pageId=p&noCache=9',
      true,
    ],
  ])('%s and %s: %s', (early, asked, expected) => {
    expect(sameRequest(early, asked)).toBe(expected);
  });

  it.each([
    ['the same token', 'tok', T0 + 10, true],
    ['another token', 'other', T0 + 10, false],
    ['no token', null, T0 + 10, false],
    ['an answer just young enough', 'tok', T0 + EARLY_MAX_AGE_MS, true],
    ['an answer too old', 'tok', T0 + EARLY_MAX_AGE_MS + 1, false],
  ])('is taken with %s: %s', (_, token, now, expected) => {
    const entries = [entry('/api/users/me')];
    expect(takeEarlyResponse('/api/users/me', token, entries, now) !== null).toBe(expected);
  });

  it('is taken once', () => {
    const entries = [entry('/api/users/me')];
    expect(takeEarlyResponse('/api/users/me', 'tok', entries, T0)).not.toBeNull();
    expect(takeEarlyResponse('/api/users/me', 'tok', entries, T0)).toBeNull();
  });
});

describe('the API client with early requests', () => {
  const early = (...entries: EarlyEntry[]) => {
    (window as unknown as Record<string, unknown>)[EARLY_GLOBAL] = entries;
  };
  afterEach(() => {
    delete (window as unknown as Record<string, unknown>)[EARLY_GLOBAL];
    setUnauthorizedHandler(null);
  });

  it('answers a GET from the matching early request once, then from the network', async () => {
    setToken('tok');
    early(entry('/api/users/me', 'tok', Date.now()));
    const fetchMock = mockApi({ 'users/me': { body: { from: 'network' } } });
    await expect(apiFetch('users/me')).resolves.toEqual({ from: 'early' });
    expect(fetchMock).not.toHaveBeenCalled();
    await expect(apiFetch('users/me')).resolves.toEqual({ from: 'network' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('never answers a write, nor a read sent with another token', async () => {
    setToken('tok');
    early(entry('/api/users/me', 'someone-else', Date.now()), entry('/api/users/login', 'tok', Date.now()));
    const fetchMock = mockApi({
      'users/me': { body: { from: 'network' } },
      'POST users/login': { body: {} },
    });
    await expect(apiFetch('users/me')).resolves.toEqual({ from: 'network' });
    await apiFetch('users/login', { method: 'POST', body: {} });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('treats an early 401 exactly like a fresh one (SPEC §2: back to /login)', async () => {
    setToken('tok');
    const refused = { errors: [{ status: '401', code: 'UNAUTHORIZED', title: 'x' }] };
    early(entry('/api/class-users', 'tok', Date.now(), answer(refused, 401)));
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    mockApi({});
    const error = await apiFetch('class-users').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(handler).toHaveBeenCalledWith('class-users', 'tok');
  });

  it('asks the network itself when the early request got no answer (offline start, issue 12)', async () => {
    setToken('tok');
    early(entry('/api/users/me', 'tok', Date.now(), Promise.reject(new TypeError('Failed to fetch'))));
    const fetchMock = mockApi({ 'users/me': { body: { from: 'network' } } });
    await expect(apiFetch('users/me')).resolves.toEqual({ from: 'network' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('still obeys the caller’s abort signal', async () => {
    const controller = new AbortController();
    const pending = settleEarly(new Promise<Response>(() => undefined), controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
