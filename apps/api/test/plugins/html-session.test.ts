import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { HTML_SESSION_COOKIE } from '../../src/plugins/html-session';
import { PASSWORD, hosts } from '../helpers/fixtures';
import { startTestApp, type TestContext } from '../helpers/app';

/** The Set-Cookie line of a cookie, or undefined. */
function cookieLine(headers: Record<string, unknown>, name: string): string | undefined {
  const raw = headers['set-cookie'];
  const lines = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  return lines.find((line) => line.startsWith(`${name}=`));
}
const htmlCookie = (headers: Record<string, unknown>) => cookieLine(headers, HTML_SESSION_COOKIE);
const legacyCookie = (headers: Record<string, unknown>) => cookieLine(headers, 'parcours_html');

const attributes = (line: string) =>
  new Map(
    line
      .split(';')
      .slice(1)
      .map((part) => {
        const [name = '', value = ''] = part.trim().split('=');
        return [name.toLowerCase(), value] as const;
      }),
  );

describe('the HTML session cookie (decision 0046)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  const signIn = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { host: hosts.alpha },
      payload: { email: 'anna@example.test', password: PASSWORD },
    });

  it('is set at sign-in: __Host-, Secure, HttpOnly, SameSite=Lax, the whole site, expiring with the token', async () => {
    const res = await signIn();
    expect(res.statusCode).toBe(200);
    const token = (res.json() as { access_token: string }).access_token;
    const line = htmlCookie(res.headers);
    expect(line).toBeDefined();
    expect(line).toContain(`${HTML_SESSION_COOKIE}=${token};`);
    const attrs = attributes(line!);
    expect(attrs.has('httponly')).toBe(true);
    expect(attrs.get('samesite')?.toLowerCase()).toBe('lax');
    expect(attrs.get('path')).toBe('/');
    // Decision 0057: a `__Host-` name, which no other origin of the host can shadow with a longer
    // path; Secure even over plain http (browsers keep it on http://localhost), no Domain.
    expect(HTML_SESSION_COOKIE.startsWith('__Host-')).toBe(true);
    expect(attrs.has('secure')).toBe(true);
    expect(attrs.has('domain')).toBe(false);
    // The old name is removed, for browsers that still hold it.
    expect(legacyCookie(res.headers)).toMatch(/^parcours_html=;.*Max-Age=0.*Path=\//i);
    const { exp } = decodeJwt(token);
    const maxAge = Number(attrs.get('max-age'));
    expect(Math.abs(Date.now() / 1000 + maxAge - exp!)).toBeLessThanOrEqual(2);
  });

  it('is Secure when the browser came over https (through a trusted proxy)', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: 'true' });
    try {
      const res = await proxied.app.inject({
        method: 'POST',
        url: '/api/users/login',
        headers: { host: hosts.alpha, 'x-forwarded-proto': 'https' },
        payload: { email: 'anna@example.test', password: PASSWORD },
      });
      expect(attributes(htmlCookie(res.headers)!).has('secure')).toBe(true);
    } finally {
      await proxied.close();
    }
  });

  it('is set from a bearer token by POST users/html-session, refused without one', async () => {
    const token = (await signIn()).json<{ access_token: string }>().access_token;
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/users/html-session',
      headers: { host: hosts.alpha, authorization: `Bearer ${token}` },
    });
    expect(ok.statusCode).toBe(204);
    expect(htmlCookie(ok.headers)).toContain(`=${token};`);
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/users/html-session',
      headers: { host: hosts.alpha, cookie: `${HTML_SESSION_COOKIE}=${token}` },
    });
    expect(none.statusCode).toBe(401);
    expect(htmlCookie(none.headers)).toBeUndefined();
  });

  it('is ended by DELETE users/html-session (sign-out), the old name with it', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/html-session',
      headers: { host: hosts.alpha },
    });
    expect(res.statusCode).toBe(204);
    const line = htmlCookie(res.headers);
    expect(line).toMatch(new RegExp(`^${HTML_SESSION_COOKIE}=;`));
    expect(attributes(line!).get('max-age')).toBe('0');
    expect(attributes(line!).has('secure')).toBe(true);
    expect(legacyCookie(res.headers)).toMatch(/^parcours_html=;.*Max-Age=0/i);
  });

  it('is replaced by the new token when the password changes (the old one is revoked)', async () => {
    const login = await signIn();
    const { access_token: token, user_id: id } = login.json<{ access_token: string; user_id: string }>();
    const newPassword = 'Other-456!x';
    const change = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${id}`,
      headers: { host: hosts.alpha, authorization: `Bearer ${token}` },
      payload: { password: newPassword, currentPassword: PASSWORD },
    });
    expect(change.statusCode).toBe(200);
    const fresh = change.json<{ access_token: string }>().access_token;
    expect(fresh).not.toBe(token);
    expect(htmlCookie(change.headers)).toContain(`=${fresh};`);
    // Back to the fixture's password for the other tests.
    const back = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${id}`,
      headers: { host: hosts.alpha, authorization: `Bearer ${fresh}` },
      payload: { password: PASSWORD, currentPassword: newPassword },
    });
    expect(back.statusCode).toBe(200);
  });

  it('grants nothing on any API route: with the cookie alone, every route answers as without credentials', async () => {
    const token = (await signIn()).json<{ access_token: string }>().access_token;
    const spec = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((method) => ({ method: method.toUpperCase(), url: path.replace(/\{[^}]+\}/g, 'x-unknown') })),
    );
    // Every route of the API is documented (app.ts registers swagger before the routes).
    expect(routes.length).toBeGreaterThan(60);
    let refused = 0;
    for (const route of routes) {
      if (route.method === 'DELETE' && route.url === '/api/users/html-session') continue;
      const send = (headers: Record<string, string>) =>
        t.app.inject({
          method: route.method as 'GET',
          url: route.url,
          headers: { host: hosts.alpha, ...headers },
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
        });
      const bare = await send({});
      const withCookie = await send({ cookie: `${HTML_SESSION_COOKIE}=${token}` });
      expect({ route, status: withCookie.statusCode }).toEqual({ route, status: bare.statusCode });
      if (withCookie.statusCode === 401) refused += 1;
    }
    // The signed-in routes are the large majority.
    expect(refused).toBeGreaterThan(routes.length / 2);
  });
});
