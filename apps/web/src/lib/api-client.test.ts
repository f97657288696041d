import { mockApi } from '../test/api-mock';
import { ApiError, apiFetch, buildQuery, setUnauthorizedHandler } from './api-client';
import { setToken } from './storage';
import { forgetStamp } from './write-stamp';

const unauthorized = { status: 401, body: { errors: [{ status: '401', code: 'UNAUTHORIZED', title: 'x' }] } };

describe('api client', () => {
  afterEach(() => setUnauthorizedHandler(null));

  it('sends the stored token as a Bearer header to /api', async () => {
    setToken('abc');
    const fetchMock = mockApi({ 'users/me': { body: { ok: true } } });
    await apiFetch('users/me');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('/api/users/me');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer abc');
  });

  it('keeps JSON:API brackets readable in the query string', () => {
    expect(
      buildQuery({
        'filter[role]': 'STUDENT',
        'filter[id]': ['a', 'b'],
        include: 'class.teachers',
        skip: undefined,
      }),
    ).toBe('?filter[role]=STUDENT&filter[id]=a,b&include=class.teachers');
  });

  it('reads the error code of an error document with the domain rules', async () => {
    mockApi({
      'POST users/login': {
        status: 401,
        body: { errors: [{ status: '401', code: 'INVALID_PASSWORD', title: 'x' }] },
      },
    });
    const error = await apiFetch('users/login', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('INVALID_PASSWORD');
  });

  it('reports a 401 on any call but users/me (and the sign-in call itself)', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    mockApi({ 'class-users': unauthorized, 'users/me': unauthorized, 'POST users/login': unauthorized });
    await apiFetch('class-users').catch(() => undefined);
    expect(handler).toHaveBeenCalledWith('class-users', null);
    handler.mockClear();
    await apiFetch('users/me').catch(() => undefined);
    await apiFetch('users/login', { method: 'POST', body: {} }).catch(() => undefined);
    expect(handler).not.toHaveBeenCalled();
  });

  it("sends the newest stamp a write of this session answered with, and not another token's", async () => {
    forgetStamp();
    setToken('abc');
    const fetchMock = mockApi({
      'PATCH users/u1': { body: {}, headers: { 'X-Parcours-Stamp': '7.3' } },
      'POST users/me/sign-out-everywhere': { body: {}, headers: { 'X-Parcours-Stamp': '9.2' } },
      'users/me': { body: {} },
    });
    const sent = () =>
      (fetchMock.mock.calls.at(-1)![1]?.headers as Record<string, string>)['X-Parcours-Stamp'];
    await apiFetch('users/me');
    expect(sent()).toBeUndefined();
    await apiFetch('users/u1', { method: 'PATCH', body: {} });
    await apiFetch('users/me');
    expect(sent()).toBe('7.3');
    // Part by part the newest: a later answer with an older content stamp keeps the newer one.
    await apiFetch('users/me/sign-out-everywhere', { method: 'POST' });
    await apiFetch('users/me');
    expect(sent()).toBe('9.3');
    setToken('other');
    await apiFetch('users/me');
    expect(sent()).toBeUndefined();
  });
});
