import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { PASSWORD, hosts, ids } from '../helpers/fixtures';
import { JWT_SECRET, get, login, settled, startTestApp } from '../helpers/app';
import type { ErrorDoc, TestContext } from '../helpers/app';

let t: TestContext;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

function postLogin(payload: unknown, opts: { host?: string; contentType?: string; ip?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/users/login',
    remoteAddress: opts.ip ?? '127.0.0.1',
    headers: { host: opts.host ?? hosts.alpha, 'content-type': opts.contentType ?? 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

describe('POST /api/users/login', () => {
  it('returns a JWT with sub, ctx, iat and exp (8 h) for good credentials', async () => {
    const res = await postLogin({ email: 'anna@example.test', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 8 * 3600, user_id: ids.learnerA });
    const payload = JSON.parse(Buffer.from(body.access_token.split('.')[1], 'base64url').toString());
    expect(payload.sub).toBe(ids.learnerA);
    expect(payload.ctx).toBe(ids.ctxA);
    expect(payload.exp - payload.iat).toBe(8 * 3600);
  });

  it('accepts the e-mail in any case, a username, and application/vnd.api+json', async () => {
    expect((await postLogin({ email: 'ANNA@Example.test', password: PASSWORD })).statusCode).toBe(200);
    expect((await postLogin({ email: 'root', password: PASSWORD })).json().user_id).toBe(ids.admin);
    expect(
      (await postLogin({ email: 'anna', password: PASSWORD }, { contentType: 'application/vnd.api+json' }))
        .statusCode,
    ).toBe(200);
  });

  it('answers the same 401 INVALID_PASSWORD for a wrong password and an unknown user', async () => {
    const wrong = await postLogin({ email: 'anna@example.test', password: 'nope' });
    const unknown = await postLogin({ email: 'ghost@example.test', password: PASSWORD });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect((res.json() as ErrorDoc).errors[0]).toMatchObject({ status: '401', code: 'INVALID_PASSWORD' });
    }
    expect(wrong.json().errors[0].detail).toBe(unknown.json().errors[0].detail);
  });

  it('signs in per tenant: the same e-mail is another account on beta', async () => {
    const res = await postLogin({ email: 'anna@example.test', password: PASSWORD }, { host: hosts.beta });
    expect(res.json().user_id).toBe(ids.betaUser);
  });

  it('refuses malformed JSON with 400 VALIDATION_ERROR', async () => {
    const res = await postLogin('{"email": "anna@', {});
    expect(res.statusCode).toBe(400);
    expect((res.json() as ErrorDoc).errors[0]?.code).toBe('VALIDATION_ERROR');
  });

  it('names each missing field with a source pointer', async () => {
    const res = await postLogin({});
    expect(res.statusCode).toBe(400);
    const errors = (res.json() as ErrorDoc).errors;
    expect(errors.map((e) => e.source?.pointer).sort()).toEqual(['/email', '/password']);
    expect(errors.every((e) => e.code === 'VALIDATION_ERROR' && e.status === '400')).toBe(true);
  });

  it('refuses wrong types, empty strings, an empty body and other media types with a 4xx code', async () => {
    const cases = [
      await postLogin({ email: 42, password: ['x'] }),
      await postLogin({ email: '', password: '' }),
      await postLogin({ email: 'a'.repeat(300), password: PASSWORD }),
      await postLogin('null'),
      await postLogin('[]'),
      await postLogin(''),
      await postLogin('email=a&password=b', { contentType: 'application/x-www-form-urlencoded' }),
      await postLogin('plain', { contentType: 'text/plain' }),
    ];
    for (const res of cases) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(typeof (res.json() as ErrorDoc).errors[0]?.code).toBe('string');
    }
  });
});

describe('GET /api/users/me', () => {
  it('returns _id and the profile with domain, roles, companies and required-data flag', async () => {
    const token = await login(t.app, 'anna@example.test');
    const res = await get(t.app, '/api/users/me', token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body._id).toBe(ids.learnerA);
    expect(body.profile).toMatchObject({
      id: ids.learnerA,
      displayName: 'Anna Martin',
      email: 'anna@example.test',
      domain: 'public', // a STUDENT company role does not make a client
      roles: [],
      companies: [{ id: ids.company, name: 'Acme', role: 'STUDENT' }],
      needsRequiredDatas: false,
      contextId: ids.ctxA,
      preferredLocale: 'fr',
      legal: { cguAcceptedVersion: '2' },
    });
    expect(JSON.stringify(body)).not.toMatch(/passwordHash|scrypt|argon2/);
  });

  it('computes the domain rule per user', async () => {
    const domainOf = async (email: string) =>
      (await get(t.app, '/api/users/me', await login(t.app, email))).json().profile;
    expect((await domainOf('teacher@example.test')).domain).toBe('client');
    const admin = await domainOf('admin@example.test');
    expect(admin.domain).toBe('grains');
    expect(admin.roles).toEqual(['admin']);
    expect(admin.permissions).toContain('preview');
    expect(admin.displayName).toBe('root');
    // Bob has no birthday and never accepted the terms.
    expect((await domainOf('bob@example.test')).needsRequiredDatas).toBe(true);
  });

  it('does not ask for required data when the tenant disables it', async () => {
    const token = await login(t.app, 'anna@example.test', hosts.beta);
    const res = await get(t.app, '/api/users/me', token, hosts.beta);
    expect(res.json().profile.needsRequiredDatas).toBe(false);
  });

  it('accepts ?access_token= instead of the header', async () => {
    const token = await login(t.app, 'anna@example.test');
    const res = await get(t.app, `/api/users/me?access_token=${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()._id).toBe(ids.learnerA);
  });

  it('answers 401 UNAUTHORIZED without a token, with a bad one, or with an expired one', async () => {
    const expired = await new SignJWT({ ctx: ids.ctxA })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(ids.learnerA)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 10 * 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 2 * 3600)
      .sign(new TextEncoder().encode(JWT_SECRET));
    for (const token of [undefined, 'garbage', expired]) {
      const res = await get(t.app, '/api/users/me', token);
      expect(res.statusCode).toBe(401);
      expect((res.json() as ErrorDoc).errors[0]?.code).toBe('UNAUTHORIZED');
    }
  });

  it('refuses a token signed with another secret', async () => {
    const forged = await new SignJWT({ ctx: ids.ctxA })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(ids.admin)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-s'));
    expect((await get(t.app, '/api/users/me', forged)).statusCode).toBe(401);
  });

  it('refuses a token of another tenant with 401', async () => {
    const betaToken = await login(t.app, 'anna@example.test', hosts.beta);
    const res = await get(t.app, '/api/users/me', betaToken, hosts.alpha);
    expect(res.statusCode).toBe(401);
    expect((res.json() as ErrorDoc).errors[0]?.code).toBe('UNAUTHORIZED');
  });

  it('refuses tokens issued before users.tokensValidAfter', async () => {
    const token = await login(t.app, 'bob@example.test');
    expect((await get(t.app, '/api/users/me', token)).statusCode).toBe(200);
    await t.tdb.db
      .updateTable('users')
      .set({ tokensValidAfter: new Date(Date.now() + 5000).toISOString() })
      .where('id', '=', ids.learnerB)
      .execute();
    await settled(t.tdb.db);
    expect((await get(t.app, '/api/users/me', token)).statusCode).toBe(401);
    await t.tdb.db
      .updateTable('users')
      .set({ tokensValidAfter: null })
      .where('id', '=', ids.learnerB)
      .execute();
    await settled(t.tdb.db);
  });
});
