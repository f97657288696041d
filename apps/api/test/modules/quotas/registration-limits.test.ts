import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, ids } from '../../helpers/fixtures';
import { startTestApp } from '../../helpers/app';
import type { TestContext } from '../../helpers/app';
import { firstError, patchContextSettings, send } from '../../helpers/identity';

/**
 * Issue 36 item 2, finding 9: one invitation code admitted 500 accounts and one address opened
 * ~100 a minute. Accounts per code and per address are now counted per hour in the database,
 * like the quotas (so across processes), and refused with 429, Retry-After and a catalogue key
 * the sign-up form shows. Only accounts actually opened count.
 */
const PER_CODE = 4;
const PER_ADDRESS = 3;
let t: TestContext;

beforeAll(async () => {
  t = await startTestApp({
    REGISTRATIONS_PER_CODE_PER_HOUR: String(PER_CODE),
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: String(PER_ADDRESS),
  });
  await patchContextSettings(t.tdb.db, ids.ctxA, {
    invitationCodes: { enabled: true, simplePassword: true },
  });
  const code = (c: string) => ({
    code: c,
    contextId: ids.ctxA,
    classIds: JSON.stringify([ids.classCurrent]),
    maxUses: 500,
    uses: 0,
    expireAt: null,
    createdAt: '2025-01-01T00:00:00.000Z',
  });
  await t.tdb.db
    .insertInto('invitationCodes')
    .values([code('SCHOOL'), code('OTHER')])
    .execute();
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const register = (code: string, ip: string) =>
  send(
    t.app,
    'POST',
    '/api/users/register',
    { code, username: `pupil-${++n}`, password: 'simple' },
    { ip, host: hosts.alpha },
  );

function expectRefused(res: Awaited<ReturnType<typeof register>>, detail: string) {
  expect(res.statusCode, res.body).toBe(429);
  expect(firstError(res)).toMatchObject({ code: 'TOO_MANY_REQUESTS', detail });
  const retry = Number(res.headers['retry-after']);
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(3600);
}

describe('self-registration limits (issue 36 finding 9)', () => {
  it('refuses an address past its accounts of the hour, whatever the code', async () => {
    const ip = '10.9.0.1';
    for (let i = 0; i < PER_ADDRESS; i++) expect((await register('OTHER', ip)).statusCode).toBe(201);
    expectRefused(await register('OTHER', ip), 'quota.registrationsPerAddress');
    expectRefused(await register('SCHOOL', ip), 'quota.registrationsPerAddress');
    // A wrong code opens no account and uses nothing of another address's hour.
    expect((await register('NOPE', '10.9.0.2')).statusCode).toBe(422);
  });

  it('refuses a code past its accounts of the hour, from any address, and keeps no account of it', async () => {
    for (let i = 0; i < PER_CODE; i++) expect((await register('SCHOOL', `10.9.1.${i}`)).statusCode).toBe(201);
    const before = await t.tdb.db.selectFrom('users').select('id').execute();
    expectRefused(await register('SCHOOL', '10.9.2.1'), 'quota.registrationsPerCode');
    expect(await t.tdb.db.selectFrom('users').select('id').execute()).toHaveLength(before.length);
  });
});
