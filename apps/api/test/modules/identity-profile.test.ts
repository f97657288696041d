import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, hosts, ids } from '../helpers/fixtures';
import { get, login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { firstError, send, tokenIssuedAt } from '../helpers/identity';

let t: TestContext;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const patch = (id: string, body: unknown, token: string, host = hosts.alpha) =>
  send(t.app, 'PATCH', `/api/users/${id}`, body, { token, host });

describe('PATCH /api/users/{id}', () => {
  it("changes only one's own profile and answers the updated user (MeResponse)", async () => {
    const token = await login(t.app, 'bob@example.test');
    const res = await patch(
      ids.learnerB,
      { firstname: 'Robert', birthday: '1990-05-04', preferredLocale: 'en' },
      token,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body._id).toBe(ids.learnerB);
    expect(body.profile).toMatchObject({
      firstname: 'Robert',
      lastname: 'Durand',
      birthday: '1990-05-04',
      preferredLocale: 'en',
      displayName: 'Robert Durand',
    });
    expect(body.access_token).toBeUndefined();
    // Still missing: acceptance of the current terms (alpha has cgu version 2).
    expect(body.profile.needsRequiredDatas).toBe(true);
    const me = await get(t.app, '/api/users/me', token);
    expect(me.json().profile.firstname).toBe('Robert');
  });

  it('accepts the current terms, which clears needsRequiredDatas', async () => {
    const token = await login(t.app, 'bob@example.test');
    const stale = await patch(ids.learnerB, { legal: { cguAcceptedVersion: '1' } }, token);
    expect(stale.statusCode).toBe(400);
    expect(firstError(stale)).toMatchObject({
      detail: 'validation.terms.required',
      source: { pointer: '/legal/cguAcceptedVersion' },
    });
    const refused = await patch(ids.learnerB, { acceptTerms: false }, token);
    expect(refused.statusCode).toBe(400);
    expect(firstError(refused).detail).toBe('validation.terms.required');
    const res = await patch(ids.learnerB, { legal: { cguAcceptedVersion: '2' } }, token);
    expect(res.statusCode).toBe(200);
    expect(res.json().profile.legal.cguAcceptedVersion).toBe('2');
    expect(res.json().profile.legal.cguAcceptedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(res.json().profile.needsRequiredDatas).toBe(false);
  });

  it('answers 403 Forbidden to a learner patching another user', async () => {
    const token = await login(t.app, 'bob@example.test');
    const res = await patch(ids.learnerA, { firstname: 'Hacked' }, token);
    expect(res.statusCode).toBe(403);
    expect(firstError(res).code).toBe('Forbidden');
    const row = await t.tdb.db
      .selectFrom('users')
      .select('firstname')
      .where('id', '=', ids.learnerA)
      .executeTakeFirstOrThrow();
    expect(row.firstname).toBe('Anna');
    expect((await patch(ids.betaUser, { firstname: 'Hacked' }, token)).statusCode).toBe(403);
  });

  it('needs a token (401)', async () => {
    expect(
      (await send(t.app, 'PATCH', `/api/users/${ids.learnerB}`, { firstname: 'Nobody' })).statusCode,
    ).toBe(401);
  });

  it.each([
    [{ lastname: '' }, '/lastname', 'validation.lastname.required'],
    [{ lastname: null }, '/lastname', 'validation.lastname.required'],
    [{ firstname: '' }, '/firstname', 'validation.firstname.required'],
    [{ firstname: 'Al' }, '/firstname', 'validation.name.length'],
    [{ lastname: 'x'.repeat(61) }, '/lastname', 'validation.name.length'],
    [{ birthday: 'yesterday' }, '/birthday', 'validation.birthday.invalid'],
    // Required data is on for alpha: the birthday cannot be removed.
    [{ birthday: '' }, '/birthday', 'validation.birthday.invalid'],
    [{ password: '', currentPassword: PASSWORD }, '/password', 'validation.password.required'],
    [{ password: 'Ab1!', currentPassword: PASSWORD }, '/password', 'validation.password.length'],
    [{ password: 'abcdefg1', currentPassword: PASSWORD }, '/password', 'validation.password.complexity'],
    [{ password: 'Abc 123!', currentPassword: PASSWORD }, '/password', 'validation.password.whitespace'],
    [{ password: 'Valid-Pass1!' }, '/currentPassword', 'validation.login.password.required'],
  ])('refuses %j with 400 and the SPEC §5 key', async (body, pointer, key) => {
    const token = await login(t.app, 'anna@example.test');
    const res = await patch(ids.learnerA, body, token);
    expect(res.statusCode).toBe(400);
    expect(firstError(res)).toMatchObject({ code: 'VALIDATION_ERROR', detail: key, source: { pointer } });
  });

  it('keeps the e-mail once set (403) and the username when the tenant hides it', async () => {
    const token = await login(t.app, 'anna@example.test');
    const email = await patch(ids.learnerA, { email: 'other@example.test' }, token);
    expect(email.statusCode).toBe(403);
    expect(firstError(email).source?.pointer).toBe('/email');
    // Sending the unchanged value is harmless.
    expect((await patch(ids.learnerA, { email: 'ANNA@example.test' }, token)).statusCode).toBe(200);
    expect((await patch(ids.learnerA, { username: 'anna2' }, token)).statusCode).toBe(403);
  });

  it('rejects unknown fields with 400', async () => {
    const token = await login(t.app, 'anna@example.test');
    const res = await patch(ids.learnerA, { isAdmin: true }, token);
    expect(res.statusCode).toBe(400);
  });

  it('changes the password with the current one, revoking earlier tokens and answering a new one', async () => {
    const before = await tokenIssuedAt(ids.teacher, ids.ctxA, new Date(Date.now() - 5_000));
    expect((await get(t.app, '/api/users/me', before)).statusCode).toBe(200);
    const wrong = await patch(ids.teacher, { password: 'Teach-Pass1!', currentPassword: 'nope' }, before);
    expect(wrong.statusCode).toBe(422);
    expect(firstError(wrong)).toMatchObject({
      code: 'INVALID_PASSWORD',
      source: { pointer: '/currentPassword' },
    });

    const res = await patch(ids.teacher, { password: 'Teach-Pass1!', currentPassword: PASSWORD }, before);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.access_token).toEqual(expect.any(String));
    // Revocation: the old token is refused, the new one works.
    const old = await get(t.app, '/api/users/me', before);
    expect(old.statusCode).toBe(401);
    expect((await get(t.app, '/api/users/me', body.access_token)).statusCode).toBe(200);
    const signIn = await send(t.app, 'POST', '/api/users/login', {
      email: 'teacher@example.test',
      password: 'Teach-Pass1!',
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('lets a user without a password (SSO) set one without a current password', async () => {
    await t.tdb.db.updateTable('users').set({ passwordHash: null }).where('id', '=', ids.admin).execute();
    const token = await tokenIssuedAt(ids.admin, ids.ctxA, new Date(Date.now() - 5_000));
    const res = await patch(
      ids.admin,
      { password: 'Admin-Pass1!', lastname: 'Root', firstname: 'Ada', birthday: '1980-01-01' },
      token,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().profile).toMatchObject({ firstname: 'Ada', lastname: 'Root' });
  });

  it('answers UNIQUE_USERNAME for a taken username where usernames are editable', async () => {
    // Beta shows no username field by default; invitation registration is off there too.
    const token = await login(t.app, 'anna@example.test', hosts.beta);
    expect((await patch(ids.betaUser, { username: 'anything' }, token, hosts.beta)).statusCode).toBe(403);
  });
});
