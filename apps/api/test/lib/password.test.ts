import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { login, startTestApp } from '../helpers/app';
import { PASSWORD, hosts, ids } from '../helpers/fixtures';
import {
  PasswordQueueFull,
  argon2CostOf,
  argon2CostProblem,
  configureHashing,
  hashPassword,
  hashingOptions,
  needsRehash,
  verifyPassword,
} from '../../src/lib/password';
import { verifySync as argon2VerifySync } from '@node-rs/argon2';
import { loadEnv } from '../../src/env';

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
  it('hashes with Argon2id at OWASP parameters (m = 19 MiB, t = 2, p = 1), in the PHC format (R3-14)', async () => {
    expect(hashingOptions().workers).toBeGreaterThan(0);
    const made = await hashPassword('Élève#2026');
    expect(made).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    // Any Argon2 implementation reads it (here the binding's own verifier, on this thread).
    expect(argon2VerifySync(made, 'Élève#2026'.normalize('NFKC'))).toBe(true);
    expect(await verifyPassword('Élève#2026', made)).toBe(true);
    expect(await verifyPassword('élève#2026', made)).toBe(false);
    expect(needsRehash(made)).toBe(false);
  });

  it('still verifies the scrypt hashes stored before (N = 16 384), and marks them for upgrade', async () => {
    const stored = plainHash('Learner#2026');
    expect(await verifyPassword('Learner#2026', stored)).toBe(true);
    expect(await verifyPassword('learner#2026', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
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
    expect(stored.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword('pw', stored)).toBe(true);
    expect(await verifyPassword('pw', plainHash('pw'))).toBe(true);
  });
});

describe('the Argon2id cost, tuned by PASSWORD_ARGON2_* (docs/operations.md)', () => {
  it.each<[number, number, string | null]>([
    [19456, 2, null],
    [47104, 1, null],
    [12288, 3, null],
    [9216, 4, null],
    [7168, 5, null],
    [7168, 4, "Argon2id memory × passes 7168 × 4 is below OWASP's least (7168 × 5)"],
    [4096, 20, "Argon2id memory 4096 KiB is below OWASP's least (7168 KiB)"],
  ])("m = %i KiB, t = %i: %s (OWASP's settings pass, weaker ones do not)", (m, t, problem) => {
    expect(argon2CostProblem({ m, t, p: 1 })).toBe(problem);
  });

  it('hashes at the configured cost; a hash at another cost verifies and is marked for replacement', async () => {
    const before = await hashPassword('pw');
    const env = loadEnv({ PASSWORD_ARGON2_MEMORY_KIB: '12288', PASSWORD_ARGON2_PASSES: '3' });
    try {
      await configureHashing({ argon2: argon2CostOf(env) });
      const after = await hashPassword('pw');
      expect(after.startsWith('$argon2id$v=19$m=12288,t=3,p=1$')).toBe(true);
      expect(needsRehash(after)).toBe(false);
      expect(await verifyPassword('pw', before)).toBe(true);
      expect(needsRehash(before)).toBe(true);
      await expect(configureHashing({ argon2: { m: 4096, t: 2, p: 1 } })).rejects.toThrow(/below OWASP/);
      expect(() => loadEnv({ PASSWORD_ARGON2_MEMORY_KIB: '1024' })).toThrow(/PASSWORD_ARGON2_MEMORY_KIB/);
    } finally {
      await configureHashing({});
    }
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

describe('sign-in upgrades an old hash (R3-14)', () => {
  it('replaces a scrypt N = 16 384 hash by an Argon2id one once the password is right', async () => {
    const t = await startTestApp();
    try {
      await t.tdb.db
        .updateTable('users')
        .set({ passwordHash: plainHash(PASSWORD) })
        .where('email', '=', 'bob@example.test')
        .execute();
      const stored = async () =>
        (
          await t.tdb.db
            .selectFrom('users')
            .select('passwordHash')
            .where('email', '=', 'bob@example.test')
            .where('contextId', '=', ids.ctxA)
            .executeTakeFirstOrThrow()
        ).passwordHash ?? '';
      // A wrong password changes nothing.
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/api/users/login',
        headers: { host: hosts.alpha },
        payload: { email: 'bob@example.test', password: 'Wrong#2026x' },
      });
      expect(wrong.statusCode).toBe(401);
      expect((await stored()).startsWith('scrypt$16384$')).toBe(true);
      expect(await login(t.app, 'bob@example.test')).toBeTruthy();
      expect((await stored()).startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
      // And the new hash signs in.
      expect(await login(t.app, 'bob@example.test')).toBeTruthy();
    } finally {
      await t.close();
    }
  });
});
