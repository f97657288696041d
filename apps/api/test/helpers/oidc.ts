import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';

/** A person known to the test provider; the sign-in form takes the subject as login. */
export interface TestIdentity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  locale?: string;
}

export interface TestOidc {
  issuer: string;
  clientId: string;
  clientSecret: string;
  identities: Map<string, TestIdentity>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 with one confidential client that must
 * use PKCE. The development sign-in form accepts any login (the subject) and password; consent
 * is given automatically (loadExistingGrant), so a test drives it with plain HTTP requests.
 */
export async function startOidcProvider(redirectUris: string[]): Promise<TestOidc> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'parcours-test';
  const clientSecret = 'test-client-secret-0123456789';
  const identities = new Map<string, TestIdentity>();

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'locale'],
    },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx: unknown, sub: string) => {
      const identity = identities.get(sub) ?? { sub };
      return { accountId: sub, claims: () => ({ ...identity, sub }) };
    },
    // Automatic consent: every client gets the scopes it asks for.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    identities,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Minimal cookie jar for fetch with manual redirects. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Follows the provider's redirects from an authorisation URL, signing in as `login` on the
 * development form, until the provider redirects outside itself (to our callback).
 */
export async function signInAtProvider(
  authorizationUrl: string,
  issuer: string,
  login: string,
): Promise<string> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let method: 'GET' | 'POST' = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 15; hop++) {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body } : {}),
    });
    jar.store(res);
    method = 'GET';
    body = undefined;
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url).href;
      if (!next.startsWith(issuer)) return next;
      url = next;
      continue;
    }
    const html = await res.text();
    if (res.status === 200 && html.includes('name="login"')) {
      const action = /action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error('sign-in form without action');
      url = new URL(action.replace(/&amp;/g, '&'), url).href;
      method = 'POST';
      body = new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString();
      continue;
    }
    throw new Error(`unexpected provider answer ${res.status}: ${html.slice(0, 300)}`);
  }
  throw new Error('too many redirects at the provider');
}
