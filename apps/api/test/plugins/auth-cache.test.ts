import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TOKEN_LIFETIME_S } from '../../src/plugins/auth';
import { ids } from '../helpers/fixtures';
import { SignJWT } from 'jose';
import { JWT_SECRET, get, login, settled, startTestApp } from '../helpers/app';
import type { ErrorDoc, TestContext } from '../helpers/app';

/**
 * auth.ts keeps the tokens whose signature it verified, so repeated requests skip the HMAC.
 * That cache must not outlive what it stands for: an expired token is refused even if it was
 * verified before, a revocation applies to the very next request, and a forged signature is
 * never taken for the genuine one.
 */
let t: TestContext;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());
afterEach(() => vi.useRealTimers());

const code = (res: { json(): unknown }) => (res.json() as ErrorDoc).errors[0]?.code;

describe('verified-token cache', () => {
  it('refuses a verified token once it has expired', async () => {
    const token = await login(t.app, 'bob@example.test');
    expect((await get(t.app, '/api/users/me', token)).statusCode).toBe(200);
    expect((await get(t.app, '/api/users/me', token)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (TOKEN_LIFETIME_S + 1) * 1000);
    const res = await get(t.app, '/api/users/me', token);
    expect(res.statusCode).toBe(401);
    expect(code(res)).toBe('UNAUTHORIZED');
  });

  it('applies a revocation to the next request of a verified token', async () => {
    const token = await login(t.app, 'bob@example.test');
    expect((await get(t.app, '/api/users/me', token)).statusCode).toBe(200);
    await t.tdb.db
      .updateTable('users')
      .set({ tokensValidAfter: new Date(Date.now() + 5000).toISOString() })
      .where('id', '=', ids.learnerB)
      .execute();
    // Heard by the app's copy within the notification's delay (decision 0059).
    await settled(t.tdb.db);
    try {
      expect((await get(t.app, '/api/users/me', token)).statusCode).toBe(401);
    } finally {
      await t.tdb.db
        .updateTable('users')
        .set({ tokensValidAfter: null })
        .where('id', '=', ids.learnerB)
        .execute();
      await settled(t.tdb.db);
    }
  });

  it('orders a token against a revocation in the same second, to the millisecond', async () => {
    const { contextId } = await t.tdb.db
      .selectFrom('users')
      .select('contextId')
      .where('id', '=', ids.learnerB)
      .executeTakeFirstOrThrow();
    // A second boundary plus 400 ms: the stolen token is 1 ms older than the revocation, the new one 0 ms.
    const revokedAt = Math.floor(Date.now() / 1000) * 1000 + 400;
    // Signed as auth.ts signs (the `auth` decorator lives in the /api scope).
    const sign = (ms: number) =>
      new SignJWT({ ctx: contextId, iatMs: ms })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(ids.learnerB)
        .setIssuedAt(Math.floor(ms / 1000))
        .setExpirationTime(Math.floor(ms / 1000) + 3600)
        .sign(new TextEncoder().encode(JWT_SECRET));
    const before = await sign(revokedAt - 1);
    const after = await sign(revokedAt);
    await t.tdb.db
      .updateTable('users')
      .set({ tokensValidAfter: new Date(revokedAt).toISOString() })
      .where('id', '=', ids.learnerB)
      .execute();
    await settled(t.tdb.db);
    try {
      expect((await get(t.app, '/api/users/me', before)).statusCode).toBe(401);
      expect((await get(t.app, '/api/users/me', after)).statusCode).toBe(200);
    } finally {
      await t.tdb.db
        .updateTable('users')
        .set({ tokensValidAfter: null })
        .where('id', '=', ids.learnerB)
        .execute();
      await settled(t.tdb.db);
    }
  });

  it('refuses a forged signature on the claims of a verified token', async () => {
    const token = await login(t.app, 'bob@example.test');
    expect((await get(t.app, '/api/users/me', token)).statusCode).toBe(200);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forged = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect((await get(t.app, '/api/users/me', forged)).statusCode).toBe(401);
    expect((await get(t.app, '/api/users/me', token)).statusCode).toBe(200);
  });
});
