import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTML_SESSION_COOKIE } from '../../src/plugins/html-session';
import { hosts, ids } from '../helpers/fixtures';
import { JWT_SECRET, get, login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { firstError, send } from '../helpers/identity';

/**
 * Issue 36 item 4 (decision 0057): a sign-out ends the session on the server, that session only,
 * and a session's renewed tokens stop N hours after its sign-in (SESSION_MAX_HOURS). Before, a
 * signed-out token stayed good for its 8 hours and renewals went on for ever.
 */
let t: TestContext;
beforeAll(async () => {
  t = await startTestApp({ SESSION_MAX_HOURS: '9' });
});
afterAll(async () => t?.close());

const signOut = (token: string) => send(t.app, 'POST', '/api/users/me/sign-out', undefined, { token });
const renew = (token: string) => send(t.app, 'POST', '/api/users/token', undefined, { token });
const accessToken = (res: { json(): unknown }) => (res.json() as { access_token: string }).access_token;
const me = async (token: string) => (await get(t.app, '/api/users/me', token)).statusCode;
const HOUR = 3600;

describe('sign-out (POST users/me/sign-out)', () => {
  it('ends this session on the server, its renewals with it, and clears the HTML cookie', async () => {
    const phone = await login(t.app, 'anna@example.test');
    const laptop = await login(t.app, 'anna@example.test');
    const renewed = accessToken(await renew(phone));
    const res = await signOut(phone);
    expect(res.statusCode).toBe(204);
    expect(res.headers['cache-control']).toBe('no-store');
    const cookies = ([] as string[]).concat((res.headers['set-cookie'] as string[] | string) ?? []);
    expect(cookies.some((c) => c.startsWith(`${HTML_SESSION_COOKIE}=;`) && /Max-Age=0/i.test(c))).toBe(true);
    expect(cookies.some((c) => c.startsWith('parcours_html=;'))).toBe(true);
    // The signed-out token and the renewal it had got are refused, and cannot renew.
    expect(await me(phone)).toBe(401);
    expect(await me(renewed)).toBe(401);
    expect((await renew(renewed)).statusCode).toBe(401);
    // Her other device stays signed in.
    expect(await me(laptop)).toBe(200);
    // Signing out twice is refused like any call of an ended session.
    expect(firstError(await signOut(phone)).code).toBe('UNAUTHORIZED');
  });

  it('ends a token signed before sessions had ids, and it alone', async () => {
    const now = Math.floor(Date.now() / 1000);
    const legacy = (iatMs: number) =>
      new SignJWT({ ctx: ids.ctxA, iatMs })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(ids.learnerA)
        .setIssuedAt(now)
        .setExpirationTime(now + HOUR)
        .sign(new TextEncoder().encode(JWT_SECRET));
    const [one, two] = [await legacy(Date.now()), await legacy(Date.now() + 1)];
    const renewed = accessToken(await renew(one));
    expect((await signOut(one)).statusCode).toBe(204);
    expect([await me(one), await me(renewed), await me(two)]).toEqual([401, 401, 200]);
  });

  it('needs the bearer token: the HTML cookie alone ends nothing', async () => {
    const token = await login(t.app, 'bob@example.test');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/sign-out',
      headers: { host: hosts.alpha, cookie: `${HTML_SESSION_COOKIE}=${token}` },
    });
    expect(res.statusCode).toBe(401);
    expect(await me(token)).toBe(200);
  });
});

describe('renewals have an absolute lifetime (SESSION_MAX_HOURS, here 9)', () => {
  const sessionOf = (token: string) => decodeJwt(token) as { sid?: string; sat?: number; exp: number };
  /** A token of session `sid` signed in at `sat`, issued at `now`, as plugins/auth.ts signs them (capped at sat + 9 h). */
  const ofSession = (sid: string, sat: number, now = Math.floor(Date.now() / 1000)) => {
    return new SignJWT({ ctx: ids.ctxA, iatMs: now * 1000, sid, sat })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(ids.learnerA)
      .setIssuedAt(now)
      .setExpirationTime(Math.min(now + 8 * HOUR, sat + 9 * HOUR))
      .sign(new TextEncoder().encode(JWT_SECRET));
  };

  it('keeps the session and its sign-in time across renewals, and never outlives it', async () => {
    const now = Math.floor(Date.now() / 1000);
    // Signed in two hours ago on this device (its token since then): the session ends 7 hours from now.
    const token = await ofSession('sess-two-hours', now - 2 * HOUR, now - 2 * HOUR);
    const res = await renew(token);
    expect(res.statusCode).toBe(200);
    const renewed = sessionOf(accessToken(res));
    expect(renewed).toMatchObject({ sid: 'sess-two-hours', sat: now - 2 * HOUR });
    expect(renewed.exp).toBe(now - 2 * HOUR + 9 * HOUR);
    expect((res.json() as { expires_in: number }).expires_in).toBeLessThanOrEqual(7 * HOUR);
    // Renewing the renewal gains nothing more: refused, the session has reached its end.
    const again = await renew(accessToken(res));
    expect(again.statusCode).toBe(403);
    expect(firstError(again).code).toBe('Forbidden');
  });

  it('refuses to renew a session signed in longer ago than the lifetime allows, though its token still works', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await ofSession('sess-old', now - 8.5 * HOUR);
    expect(sessionOf(token).exp).toBe(now + 0.5 * HOUR);
    expect(await me(token)).toBe(200);
    expect((await renew(token)).statusCode).toBe(403);
  });

  it('a sign-in starts a session with its own id and time', async () => {
    const a = sessionOf(await login(t.app, 'anna@example.test'));
    const b = sessionOf(await login(t.app, 'anna@example.test'));
    expect(a.sid).toMatch(/^[\w-]{22}$/);
    expect(a.sid).not.toBe(b.sid);
    expect(Math.abs(a.sat! - Date.now() / 1000)).toBeLessThan(5);
    expect(a.exp - a.sat!).toBe(8 * HOUR);
  });
});
