import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../../src/lib/password';
import { PASSWORD, T0, hosts, ids } from '../helpers/fixtures';
import { startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';

/**
 * Issue 10 finding 8, with the production limits (LOGIN_RATE_LIMIT 10, the per-address limit
 * derived from it): nobody can lock an account out by failing on purpose, and a classroom
 * behind one address signs in.
 */
let t: TestContext;
beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '10' });
});
afterAll(async () => {
  await t.close();
});

const attempt = (
  email: string,
  ip: string,
  password: string,
  cookie?: string,
): Promise<LightMyRequestResponse> =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/login',
    remoteAddress: ip,
    headers: { host: hosts.alpha, ...(cookie ? { cookie } : {}) },
    payload: { email, password },
  });

/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie header. */
function cookiesOf(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

describe('no lockout', () => {
  it('12 wrong sign-ins from different addresses do not stop the right password from a known device', async () => {
    // Bob signed in from his browser earlier: it holds the device cookie.
    const first = await attempt('bob@example.test', '10.9.0.1', PASSWORD);
    expect(first.statusCode).toBe(200);
    const device = cookiesOf(first);
    expect(device).not.toBe('');
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\/api\/users\/login/);

    for (let i = 0; i < 12; i++) {
      const res = await attempt('bob@example.test', `10.8.0.${i + 1}`, `wrong-${i}`);
      expect([401, 429]).toContain(res.statusCode);
    }
    const res = await attempt('bob@example.test', '10.7.0.1', PASSWORD, device);
    expect(res.statusCode).toBe(200);
  });

  it('a device cookie of another account does not pass for this one', async () => {
    const annaDevice = cookiesOf(await attempt('anna@example.test', '10.9.1.1', PASSWORD));
    for (let i = 0; i < 12; i++) await attempt('teacher@example.test', `10.8.1.${i + 1}`, `wrong-${i}`);
    const res = await attempt('teacher@example.test', '10.9.1.1', 'still-wrong', annaDevice);
    expect(res.statusCode).toBe(429);
  });

  it('40 distinct learners signing in from one address within a minute all succeed', async () => {
    const hash = await hashPassword(PASSWORD);
    const learners = Array.from({ length: 40 }, (_, i) => ({
      id: `u-class-${i}`,
      contextId: ids.ctxA,
      email: `pupil${i}@example.test`,
      username: null,
      firstname: null,
      lastname: null,
      birthday: null,
      avatarId: null,
      passwordHash: hash,
      tincanIdentifier: null,
      preferredLocale: null,
      oidcSubject: null,
      tokensValidAfter: null,
      legal: '{}',
      createdAt: T0,
      updatedAt: T0,
    }));
    await t.tdb.db.insertInto('users').values(learners).execute();
    const statuses: number[] = [];
    for (const l of learners) {
      // A few typos first, as a real classroom does.
      if (l.id.endsWith('7')) statuses.push((await attempt(l.email, '192.0.2.10', 'typo')).statusCode);
      statuses.push((await attempt(l.email, '192.0.2.10', PASSWORD)).statusCode);
    }
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
  });
});
