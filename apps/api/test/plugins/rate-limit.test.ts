import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, hosts } from '../helpers/fixtures';
import { startTestApp } from '../helpers/app';
import type { ErrorDoc, TestContext } from '../helpers/app';

let t: TestContext;
beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '3', LOGIN_IP_RATE_LIMIT: '5' });
});
afterAll(async () => {
  await t.close();
});

const attempt = (email: string, ip: string, password = 'wrong') =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/login',
    remoteAddress: ip,
    headers: { host: hosts.alpha },
    payload: { email, password },
  });

describe('login rate limit', () => {
  it('limits attempts per address: the 6th in a minute is 429 TOO_MANY_REQUESTS', async () => {
    for (const email of [
      'x1@example.test',
      'x2@example.test',
      'x3@example.test',
      'x4@example.test',
      'x5@example.test',
    ]) {
      expect((await attempt(email, '10.0.0.1')).statusCode).toBe(401);
    }
    const res = await attempt('x6@example.test', '10.0.0.1');
    expect(res.statusCode).toBe(429);
    expect((res.json() as ErrorDoc).errors[0]).toMatchObject({ status: '429', code: 'TOO_MANY_REQUESTS' });
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('slows guessing on one account across addresses, with the counter kept in the database', async () => {
    for (const ip of ['10.0.1.1', '10.0.1.2', '10.0.1.3']) {
      expect((await attempt('bob@example.test', ip)).statusCode).toBe(401);
    }
    const row = await t.tdb.db
      .selectFrom('loginAttempts')
      .selectAll()
      .where('key', '=', 'login:ctx-alpha:bob@example.test')
      .executeTakeFirst();
    expect(Number(row?.count)).toBe(3);
    // Past the limit an unknown browser gets one attempt per slot: guessing cannot be spread
    // over many addresses, and the next one waits.
    expect((await attempt('bob@example.test', '10.0.1.4')).statusCode).toBe(401);
    const res = await attempt('BOB@example.test', '10.0.1.5', PASSWORD);
    expect(res.statusCode).toBe(429);
    expect((res.json() as ErrorDoc).errors[0]?.code).toBe('TOO_MANY_REQUESTS');
  });

  it('lets the right password through once the slot has passed, and a success clears the account counter', async () => {
    await t.tdb.db
      .updateTable('loginAttempts')
      .set({ windowStart: new Date(Date.now() - 6_000).toISOString() })
      .where('key', '=', 'login-slow:ctx-alpha:bob@example.test')
      .execute();
    expect((await attempt('bob@example.test', '10.0.2.1', PASSWORD)).statusCode).toBe(200);
    const row = await t.tdb.db
      .selectFrom('loginAttempts')
      .selectAll()
      .where('key', '=', 'login:ctx-alpha:bob@example.test')
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('starts a new window after a minute', async () => {
    for (const ip of ['10.0.3.1', '10.0.3.2', '10.0.3.3'])
      expect((await attempt('teacher@example.test', ip)).statusCode).toBe(401);
    await t.tdb.db
      .updateTable('loginAttempts')
      .set({ windowStart: new Date(Date.now() - 61_000).toISOString() })
      .where('key', 'like', '%teacher@example.test')
      .execute();
    expect((await attempt('teacher@example.test', '10.0.3.4')).statusCode).toBe(401);
    expect((await attempt('teacher@example.test', '10.0.3.5', PASSWORD)).statusCode).toBe(200);
  });

  it('does not limit other routes', async () => {
    for (let i = 0; i < 8; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/contexts/current',
        remoteAddress: '10.0.0.1',
        headers: { host: hosts.alpha },
      });
      expect(res.statusCode).toBe(200);
    }
  });
});
