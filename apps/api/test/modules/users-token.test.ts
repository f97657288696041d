import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, ids } from '../helpers/fixtures';
import { JWT_SECRET, get, login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { firstError, send } from '../helpers/identity';

/**
 * POST /api/users/token (decision 0044): the web renews a token close to its expiry while the
 * learner is active. Only a still-valid token renews: expired, revoked, foreign or absent → 401.
 */
let t: TestContext;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const claims = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    sub: string;
    exp: number;
    iat: number;
  };

function forged(userId: string, contextId: string, exp: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ctx: contextId, iatMs: Date.now() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(Math.min(now, exp - 1))
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(JWT_SECRET));
}

describe('POST /api/users/token', () => {
  it('answers a fresh 8-hour token for a token close to its expiry, which then works', async () => {
    const old = await forged(ids.learnerA, ids.ctxA, Math.floor(Date.now() / 1000) + 120);
    const res = await send(t.app, 'POST', '/api/users/token', undefined, { token: old });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as {
      access_token: string;
      token_type: string;
      expires_in: number;
      user_id: string;
    };
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 8 * 3600, user_id: ids.learnerA });
    const fresh = claims(body.access_token);
    expect(fresh.sub).toBe(ids.learnerA);
    expect(fresh.exp).toBeGreaterThan(claims(old).exp + 7 * 3600);
    const me = await get(t.app, '/api/users/me', body.access_token);
    expect(me.statusCode).toBe(200);
  });

  it('refuses an expired token, a token of another tenant and no token with 401', async () => {
    const expired = await forged(ids.learnerA, ids.ctxA, Math.floor(Date.now() / 1000) - 5);
    for (const token of [expired, undefined]) {
      const res = await send(t.app, 'POST', '/api/users/token', undefined, { token });
      expect(res.statusCode).toBe(401);
      expect(firstError(res).code).toBe('UNAUTHORIZED');
    }
    const alpha = await login(t.app, 'anna@example.test');
    const foreign = await send(t.app, 'POST', '/api/users/token', undefined, {
      token: alpha,
      host: hosts.beta,
    });
    expect(foreign.statusCode).toBe(401);
  });

  it('refuses a token revoked by a password change: revocation cannot be outrun by renewing', async () => {
    const token = await login(t.app, 'anna@example.test');
    // What a password change on another device writes (plugins/auth.ts reads it on every request).
    await t.tdb.db
      .updateTable('users')
      .set({ tokensValidAfter: new Date(Date.now() + 60_000).toISOString() })
      .where('id', '=', ids.learnerA)
      .execute();
    const res = await send(t.app, 'POST', '/api/users/token', undefined, { token });
    expect(res.statusCode).toBe(401);
    expect(firstError(res).code).toBe('UNAUTHORIZED');
    await t.tdb.db
      .updateTable('users')
      .set({ tokensValidAfter: null })
      .where('id', '=', ids.learnerA)
      .execute();
  });
});
