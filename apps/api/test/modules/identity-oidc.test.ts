import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { hosts, ids } from '../helpers/fixtures';
import { get, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { patchContextSettings } from '../helpers/identity';
import { signInAtProvider, startOidcProvider } from '../helpers/oidc';
import type { TestOidc } from '../helpers/oidc';

let t: TestContext;
let idp: TestOidc;
const CALLBACK = `http://${hosts.alpha}/api/auth/oidc/${ids.ctxA}/callback`;

beforeAll(async () => {
  idp = await startOidcProvider([CALLBACK]);
  t = await startTestApp();
  // Before the first request: the tenant plugin caches contexts.
  await patchContextSettings(t.tdb.db, ids.ctxA, {
    login: {
      internal: true,
      oidc: {
        label: 'Alpha SSO',
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
      },
    },
  });
  idp.identities.set('sso-new', {
    sub: 'sso-new',
    email: 'Newcomer@Example.test',
    email_verified: true,
    given_name: 'Nina',
    family_name: 'Nouvelle',
    locale: 'en-GB',
  });
  idp.identities.set('sso-bob', { sub: 'sso-bob', email: 'bob@example.test', email_verified: true });
  idp.identities.set('sso-fake-anna', {
    sub: 'sso-fake-anna',
    email: 'anna@example.test',
    email_verified: false,
  });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

function cookieOf(res: LightMyRequestResponse): string {
  const header = res.headers['set-cookie'];
  const line = (Array.isArray(header) ? header : [header ?? ''])[0] ?? '';
  return line.split(';')[0] ?? '';
}

/** login URL → provider (sign-in as `sub`) → callback; returns the app's final redirect. */
async function ssoRoundTrip(sub: string): Promise<URL> {
  const start = await get(t.app, `/api/auth/oidc/${ids.ctxA}/login`);
  expect(start.statusCode).toBe(302);
  const authorization = new URL(start.headers.location as string);
  expect(authorization.origin).toBe(idp.issuer);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('redirect_uri')).toBe(CALLBACK);
  const cookie = cookieOf(start);
  expect(start.headers['set-cookie']).toMatch(/HttpOnly; SameSite=Lax/);

  const callback = await signInAtProvider(authorization.href, idp.issuer, sub);
  expect(callback.startsWith(CALLBACK)).toBe(true);
  const path = callback.slice(`http://${hosts.alpha}`.length);
  const done = await get(t.app, path, undefined, hosts.alpha, { headers: { cookie } });
  expect(done.statusCode).toBe(302);
  return new URL(done.headers.location as string);
}

describe("SSO through the tenant's OpenID provider", () => {
  it('publishes the label only, never the client secret or the issuer settings', async () => {
    const res = await get(t.app, '/api/contexts/current');
    expect(res.json().data.attributes.settings.login.oidc).toEqual({ label: 'Alpha SSO' });
    expect(res.body).not.toContain(idp.clientSecret);
    expect(res.body).not.toContain('SUPER-SECRET-VALUE');
    expect(res.body).not.toContain(idp.issuer);
  });

  it('creates a learner on first sign-in and hands the web app idT/idU; me works with that token', async () => {
    const target = await ssoRoundTrip('sso-new');
    expect(target.origin).toBe(`http://${hosts.alpha}`);
    expect(target.pathname).toBe('/');
    const token = target.searchParams.get('idT');
    const userId = target.searchParams.get('idU');
    expect(token).toBeTruthy();
    const me = await get(t.app, '/api/users/me', token ?? '');
    expect(me.statusCode).toBe(200);
    expect(me.json()._id).toBe(userId);
    expect(me.json().profile).toMatchObject({
      email: 'newcomer@example.test',
      firstname: 'Nina',
      lastname: 'Nouvelle',
      preferredLocale: 'en',
    });
    const row = await t.tdb.db
      .selectFrom('users')
      .select(['oidcSubject', 'passwordHash'])
      .where('id', '=', userId ?? '')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ oidcSubject: 'sso-new', passwordHash: null });

    // Second sign-in: the same account, found by subject.
    const again = await ssoRoundTrip('sso-new');
    expect(again.searchParams.get('idU')).toBe(userId);
  });

  it('links an existing account by verified e-mail', async () => {
    const target = await ssoRoundTrip('sso-bob');
    expect(target.searchParams.get('idU')).toBe(ids.learnerB);
    const row = await t.tdb.db
      .selectFrom('users')
      .select('oidcSubject')
      .where('id', '=', ids.learnerB)
      .executeTakeFirstOrThrow();
    expect(row.oidcSubject).toBe('sso-bob');
  });

  it('never links by an unverified e-mail', async () => {
    const target = await ssoRoundTrip('sso-fake-anna');
    expect(target.searchParams.get('idU')).not.toBe(ids.learnerA);
    const created = await t.tdb.db
      .selectFrom('users')
      .select('email')
      .where('oidcSubject', '=', 'sso-fake-anna')
      .executeTakeFirstOrThrow();
    expect(created.email).toBe('');
  });

  it('sends a callback without the state cookie, or with a forged state, back to /login', async () => {
    const start = await get(t.app, `/api/auth/oidc/${ids.ctxA}/login`);
    const callback = await signInAtProvider(start.headers.location as string, idp.issuer, 'sso-new');
    const path = callback.slice(`http://${hosts.alpha}`.length);
    const noCookie = await get(t.app, path);
    expect(noCookie.statusCode).toBe(302);
    expect(noCookie.headers.location).toBe(`http://${hosts.alpha}/login?sso=failed`);
    // A cookie from another login attempt does not match this state.
    const other = await get(t.app, `/api/auth/oidc/${ids.ctxA}/login`);
    const forged = await get(t.app, path, undefined, hosts.alpha, { headers: { cookie: cookieOf(other) } });
    expect(forged.headers.location).toBe(`http://${hosts.alpha}/login?sso=failed`);
  });

  it('answers 404 for a tenant without SSO or a context id of another host', async () => {
    expect((await get(t.app, `/api/auth/oidc/${ids.ctxB}/login`, undefined, hosts.beta)).statusCode).toBe(
      404,
    );
    expect((await get(t.app, `/api/auth/oidc/${ids.ctxB}/login`)).statusCode).toBe(404);
  });
});
