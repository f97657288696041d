import { mockApi } from '../test/api-mock';
import { fakeToken, me } from '../test/fixtures';
import { setUnauthorizedHandler } from './api-client';
import { setSessionUser } from './session';
import { getToken } from './storage';
import { ACTIVE_WITHIN_MS, noteActivity, renewIfDue, RENEW_WITHIN_MS } from './token-renewal';

const MIN = 60_000;
const tokenLeft = (ms: number) => fakeToken({ sub: 'u-1', exp: Math.floor((Date.now() + ms) / 1000) });

describe('renewing the token while the learner is active (decision 0044)', () => {
  afterEach(() => setUnauthorizedHandler(null));

  it.each([
    ['in its last hour, active a minute ago', 30 * MIN, 1 * MIN, true],
    ['in its last hour, away for 20 minutes', 30 * MIN, 20 * MIN, false],
    ['with 3 hours left, active', 3 * 60 * MIN, 0, false],
    ['a minute from its end, active just now', 1 * MIN, 0, true],
  ])('a token %s: renewed %s', async (_name, left, idle, renewed) => {
    expect(RENEW_WITHIN_MS).toBe(60 * MIN);
    expect(ACTIVE_WITHIN_MS).toBe(15 * MIN);
    const old = tokenLeft(left);
    setSessionUser(me(), old);
    const fresh = tokenLeft(8 * 60 * MIN);
    const fetchMock = mockApi({
      'POST users/token': { body: { access_token: fresh, token_type: 'Bearer' } },
    });
    noteActivity(Date.now() - idle);
    expect(await renewIfDue()).toBe(renewed);
    expect(fetchMock).toHaveBeenCalledTimes(renewed ? 1 : 0);
    expect(getToken()).toBe(renewed ? fresh : old);
  });

  it('a revoked token cannot renew: the 401 ends the session through the one handler', async () => {
    const old = tokenLeft(10 * MIN);
    setSessionUser(me(), old);
    mockApi({
      'POST users/token': { status: 401, body: { errors: [{ status: '401', code: 'UNAUTHORIZED' }] } },
    });
    const ended = vi.fn();
    setUnauthorizedHandler(ended);
    noteActivity();
    expect(await renewIfDue()).toBe(false);
    expect(ended).toHaveBeenCalledWith('users/token', old);
  });

  it('a session at its absolute lifetime (403) is not asked again for that token (decision 0057)', async () => {
    const old = tokenLeft(30 * MIN);
    setSessionUser(me(), old);
    const fetchMock = mockApi({
      'POST users/token': { status: 403, body: { errors: [{ status: '403', code: 'Forbidden' }] } },
    });
    const ended = vi.fn();
    setUnauthorizedHandler(ended);
    noteActivity();
    expect(await renewIfDue()).toBe(false);
    expect(await renewIfDue()).toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // The token still works until its own end: the session goes on meanwhile.
    expect(ended).not.toHaveBeenCalled();
    expect(getToken()).toBe(old);
  });

  it('a token already over ends the session online, without a call', async () => {
    const old = tokenLeft(-MIN);
    setSessionUser(me(), old);
    const fetchMock = mockApi({});
    const ended = vi.fn();
    setUnauthorizedHandler(ended);
    expect(await renewIfDue()).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(ended).toHaveBeenCalledWith('users/token', old);
  });

  it('two checks at once make one renewal', async () => {
    setSessionUser(me(), tokenLeft(5 * MIN));
    const fetchMock = mockApi({ 'POST users/token': { body: { access_token: tokenLeft(8 * 60 * MIN) } } });
    noteActivity();
    await Promise.all([renewIfDue(), renewIfDue()]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
