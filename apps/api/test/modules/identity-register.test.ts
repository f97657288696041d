import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, ids } from '../helpers/fixtures';
import { get, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { firstError, patchContextSettings, send } from '../helpers/identity';

let t: TestContext;
const PAST = '2025-01-01T00:00:00.000Z';
const FUTURE = '2099-01-01T00:00:00.000Z';

beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '5', LOGIN_IP_RATE_LIMIT: '5' });
  await patchContextSettings(t.tdb.db, ids.ctxA, {
    invitationCodes: { enabled: true, simplePassword: true },
  });
  const code = (c: string, contextId: string, extra: Record<string, unknown> = {}) => ({
    code: c,
    contextId,
    classIds: JSON.stringify([ids.classCurrent]),
    maxUses: null,
    uses: 0,
    expireAt: null,
    createdAt: PAST,
    ...extra,
  });
  await t.tdb.db
    .insertInto('invitationCodes')
    .values([
      code('WELCOME', ids.ctxA, { expireAt: FUTURE }),
      code('EXPIRED', ids.ctxA, { expireAt: PAST }),
      code('USED-UP', ids.ctxA, { maxUses: 2, uses: 2 }),
      code('ONCE', ids.ctxA, { maxUses: 1 }),
      code('ONCE-MORE', ids.ctxA, { maxUses: 1 }),
      // Another tenant's class in the list is ignored.
      code('MIXED', ids.ctxA, { classIds: JSON.stringify([ids.classB, ids.classBeta]) }),
      code('BETA', ids.ctxB, { classIds: JSON.stringify([ids.classBeta]) }),
    ])
    .execute();
});
afterAll(async () => {
  await t?.close();
});

let ipSeq = 0;
const nextIp = () => `10.8.${Math.floor(++ipSeq / 200)}.${ipSeq % 200}`;
const register = (body: Record<string, unknown>, opts: { ip?: string; host?: string } = {}) =>
  send(t.app, 'POST', '/api/users/register', body, {
    ip: opts.ip ?? nextIp(),
    host: opts.host ?? hosts.alpha,
  });

describe('POST /api/users/register', () => {
  it("creates an invitation-code learner enrolled in the code's classes, with lessons, and signs them in", async () => {
    const res = await register({
      code: 'WELCOME',
      username: 'newbie',
      password: 'simple',
      email: 'New@Example.test',
      preferredLocale: 'en',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json() as { access_token: string; user_id: string; token_type: string };
    expect(body.token_type).toBe('Bearer');
    const me = await get(t.app, '/api/users/me', body.access_token);
    expect(me.statusCode).toBe(200);
    expect(me.json().profile).toMatchObject({
      id: body.user_id,
      username: 'newbie',
      email: 'new@example.test',
      isFromInvitationCode: true,
      preferredLocale: 'en',
      // Names, birthday and terms are still missing.
      needsRequiredDatas: true,
    });
    const enrolments = await t.tdb.db
      .selectFrom('classUsers')
      .selectAll()
      .where('userId', '=', body.user_id)
      .execute();
    expect(enrolments.map((e) => [e.classId, e.role])).toEqual([[ids.classCurrent, 'STUDENT']]);
    const lessons = await t.tdb.db
      .selectFrom('lessons')
      .select(['classId', 'state'])
      .where('userId', '=', body.user_id)
      .execute();
    expect(lessons.length).toBeGreaterThan(0);
    expect(lessons.every((l) => l.classId === ids.classCurrent)).toBe(true);
    const classUsers = await get(t.app, '/api/class-users', body.access_token);
    expect(classUsers.json().data).toHaveLength(1);
    const code = await t.tdb.db
      .selectFrom('invitationCodes')
      .select('uses')
      .where('code', '=', 'WELCOME')
      .executeTakeFirstOrThrow();
    expect(Number(code.uses)).toBe(1);
    // The new password signs in.
    const signIn = await send(
      t.app,
      'POST',
      '/api/users/login',
      { email: 'newbie', password: 'simple' },
      { ip: nextIp() },
    );
    expect(signIn.statusCode).toBe(200);
  });

  it('allows no e-mail for invitation registration, and several learners without one', async () => {
    for (const username of ['nomail1', 'nomail2']) {
      const res = await register({ code: 'WELCOME', username, password: 'simple' });
      expect(res.statusCode).toBe(201);
    }
  });

  it('ignores classes of another tenant listed by a code', async () => {
    const res = await register({ code: 'MIXED', username: 'mixed', password: 'simple' });
    expect(res.statusCode).toBe(201);
    const enrolments = await t.tdb.db
      .selectFrom('classUsers')
      .select('classId')
      .where('userId', '=', res.json().user_id)
      .execute();
    expect(enrolments.map((e) => e.classId)).toEqual([ids.classB]);
  });

  it.each([
    ['an unknown code', 'NOPE'],
    ['an expired code', 'EXPIRED'],
    ['a used-up code', 'USED-UP'],
    ["another tenant's code", 'BETA'],
  ])('refuses %s with 422 INVALID_INVITATION_CODE and writes nothing', async (_label, code) => {
    const res = await register({ code, username: `user-${code}`, password: 'simple' });
    expect(res.statusCode).toBe(422);
    expect(firstError(res)).toMatchObject({ code: 'INVALID_INVITATION_CODE', source: { pointer: '/code' } });
    expect(
      await t.tdb.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', `user-${code}`)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('is refused when the tenant has invitation codes off (403 Forbidden)', async () => {
    const res = await register(
      { code: 'BETA', username: 'betanew', password: 'simple' },
      { host: hosts.beta },
    );
    expect(res.statusCode).toBe(403);
    expect(firstError(res).code).toBe('Forbidden');
  });

  it('answers UNIQUE_USERNAME and UNIQUE_USERNAME_OR_EMAIL (e-mail in any case) without using the code', async () => {
    const taken = await register({ code: 'ONCE', username: 'anna', password: 'simple' });
    expect(taken.statusCode).toBe(409);
    expect(firstError(taken).code).toBe('UNIQUE_USERNAME');
    const email = await register({
      code: 'ONCE',
      username: 'someone',
      password: 'simple',
      email: 'BOB@example.test',
    });
    expect(email.statusCode).toBe(409);
    expect(firstError(email).code).toBe('UNIQUE_USERNAME_OR_EMAIL');
    const code = await t.tdb.db
      .selectFrom('invitationCodes')
      .select('uses')
      .where('code', '=', 'ONCE')
      .executeTakeFirstOrThrow();
    expect(Number(code.uses)).toBe(0);
  });

  it('gives one success to concurrent registrations of the same username', async () => {
    const answers = await Promise.all(
      [1, 2, 3].map((i) =>
        register({ code: 'WELCOME', username: 'racer', password: 'simple', email: `racer${i}@example.test` }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([201, 409, 409]);
    for (const a of answers.filter((x) => x.statusCode === 409))
      expect(firstError(a).code).toBe('UNIQUE_USERNAME');
    expect(
      await t.tdb.db.selectFrom('users').select('id').where('username', '=', 'racer').execute(),
    ).toHaveLength(1);
  });

  it('gives one success to concurrent registrations of the same e-mail in different cases', async () => {
    const answers = await Promise.all(
      ['Twin@example.test', 'twin@EXAMPLE.test'].map((email, i) =>
        register({ code: 'WELCOME', username: `twin${i}`, password: 'simple', email }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(firstError(answers.find((a) => a.statusCode === 409)!).code).toBe('UNIQUE_USERNAME_OR_EMAIL');
  });

  it('never lets a single-use code be used twice, even concurrently', async () => {
    const answers = await Promise.all(
      ['solo1', 'solo2'].map((username) => register({ code: 'ONCE-MORE', username, password: 'simple' })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422]);
    const code = await t.tdb.db
      .selectFrom('invitationCodes')
      .select('uses')
      .where('code', '=', 'ONCE-MORE')
      .executeTakeFirstOrThrow();
    expect(Number(code.uses)).toBe(1);
  });

  it.each([
    [{ username: '' }, '/username', 'validation.username.required'],
    [{ username: 'ab' }, '/username', 'validation.name.length'],
    [{ email: 'not-an-email' }, '/email', 'validation.email.invalid'],
    [{ password: '' }, '/password', 'validation.password.required'],
    [{ password: 'abc' }, '/password', 'validation.password.minLength'],
    [{ firstname: 'Al' }, '/firstname', 'validation.name.length'],
    [{ lastname: '' }, '/lastname', 'validation.lastname.required'],
  ])('validates %j with the SPEC §5 key (simple-password tenant)', async (patch, pointer, key) => {
    const res = await register({ code: 'WELCOME', username: 'valid-name', password: 'simple', ...patch });
    expect(res.statusCode).toBe(400);
    expect(firstError(res)).toMatchObject({ code: 'VALIDATION_ERROR', detail: key, source: { pointer } });
  });

  it('rejects unknown fields and a missing code with 400', async () => {
    expect(
      (await register({ code: 'WELCOME', username: 'x-user', password: 'simple', isAdmin: true })).statusCode,
    ).toBe(400);
    expect((await register({ username: 'x-user', password: 'simple' })).statusCode).toBe(400);
  });

  it('is rate-limited per address', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++)
      expect(
        (await register({ code: 'NOPE', username: `rl${i}`, password: 'simple' }, { ip })).statusCode,
      ).toBe(422);
    const res = await register({ code: 'NOPE', username: 'rl9', password: 'simple' }, { ip });
    expect(res.statusCode).toBe(429);
    expect(firstError(res).code).toBe('TOO_MANY_REQUESTS');
  });
});
