import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { login, startTestApp } from '../helpers/app';
import { PASSWORD, hosts } from '../helpers/fixtures';
import {
  PasswordQueueFull,
  configureHashing,
  hashPassword,
  hashingOptions,
  verifyPassword,
} from '../../src/lib/password';

/**
 * Hashing runs in worker threads of its own (decision 0025). The stored format and the scrypt
 * cost are unchanged: a hash made by plain scrypt in this thread verifies, and a hash made by the
 * pool verifies with plain scrypt. The pool is bounded: past `maxQueue` waiting hashes a new one
 * is refused at once rather than queued.
 */
afterAll(async () => configureHashing({}));

const plainHash = (password: string) => {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 16384, r: 8, p: 1 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
};

describe('password hashing', () => {
  it('keeps N = 16 384 and the stored format, both ways', async () => {
    expect(hashingOptions().workers).toBeGreaterThan(0);
    const stored = plainHash('Learner#2026');
    expect(await verifyPassword('Learner#2026', stored)).toBe(true);
    expect(await verifyPassword('learner#2026', stored)).toBe(false);
    const made = await hashPassword('Élève#2026');
    const [scheme, n, r, p, salt, hash] = made.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '16384', '8', '1']);
    const again = scryptSync('Élève#2026'.normalize('NFKC'), Buffer.from(salt!, 'base64url'), 32, {
      N: 16384,
      r: 8,
      p: 1,
    });
    expect(again.toString('base64url')).toBe(hash);
  });

  it('refuses a hash at once when the queue is full, and serves the others', async () => {
    await configureHashing({ workers: 1, maxQueue: 2 });
    const stored = plainHash('pw');
    // One runs, two wait, the fourth is refused.
    const runs = [1, 2, 3].map(() => verifyPassword('pw', stored));
    await expect(verifyPassword('pw', stored)).rejects.toBeInstanceOf(PasswordQueueFull);
    expect(await Promise.all(runs)).toEqual([true, true, true]);
  });

  it('still hashes on libuv when no worker is configured', async () => {
    await configureHashing({ workers: 0 });
    const stored = await hashPassword('pw');
    expect(await verifyPassword('pw', stored)).toBe(true);
  });
});

describe('sign-in with the hashing queue full', () => {
  it('answers 429 without counting a failure, and signs in once the queue drains', async () => {
    const t = await startTestApp();
    try {
      await configureHashing({ workers: 1, maxQueue: 0 });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users/login',
        headers: { host: hosts.alpha },
        payload: { email: 'bob@example.test', password: PASSWORD },
      });
      expect(res.statusCode).toBe(429);
      expect((res.json() as { errors: { code: string }[] }).errors[0]?.code).toBe('TOO_MANY_REQUESTS');
      const failures = await t.tdb.db
        .selectFrom('loginAttempts')
        .select('key')
        .where('key', 'like', 'login:%')
        .execute();
      expect(failures).toEqual([]);
      await configureHashing({});
      expect(await login(t.app, 'bob@example.test')).toBeTruthy();
    } finally {
      await configureHashing({});
      await t.close();
    }
  });
});
