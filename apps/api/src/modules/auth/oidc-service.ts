import { createHmac } from 'node:crypto';
import * as client from 'openid-client';
import { SignJWT, jwtVerify } from 'jose';
import { z } from 'zod';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import { newId } from '../../lib/ids';
import { ApiError } from '../../plugins/errors';
import type { ContextRow } from '../contexts/repository';
import { findUserByEmail, findUserByOidcSubject, insertUser, updateUser } from '../users/repository';
import { uniqueViolation } from '../../db/constraint-errors';
import type { UserRow } from '../users/repository';

/**
 * SSO with the tenant's OpenID provider: authorisation code flow with PKCE, state and nonce
 * (openid-client v6). The per-login secrets travel in a short-lived signed cookie, so any API
 * process can handle the callback (no server session).
 *
 * Stored tenant settings (`contexts.settings.login.oidc`, server-side only; the public
 * serializer keeps `label` alone):
 *   { label, issuer, clientId, clientSecret?, scope? }
 */
const oidcSettingsSchema = z.object({
  label: z.string().optional(),
  issuer: z.url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1).optional(),
  scope: z.string().min(1).optional(),
});
export type OidcSettings = z.infer<typeof oidcSettingsSchema>;

export const STATE_COOKIE = 'parcours_oidc';
export const STATE_TTL_S = 600;
const DEFAULT_SCOPE = 'openid email profile';
const CONFIG_TTL_MS = 10 * 60_000;

export function oidcSettingsOf(context: ContextRow): OidcSettings | null {
  const settings = parseJson<{ login?: { oidc?: unknown } }>(context.settings, {});
  const parsed = oidcSettingsSchema.safeParse(settings.login?.oidc);
  return parsed.success ? parsed.data : null;
}

function isLoopback(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
}

export interface OidcStatePayload {
  ctx: string;
  state: string;
  nonce: string;
  verifier: string;
}

export class OidcService {
  private readonly configs = new Map<string, { config: client.Configuration; expires: number }>();
  private readonly stateKey: Uint8Array;

  constructor(
    private readonly db: Db,
    secret: string,
  ) {
    // A key of its own: a state cookie can never pass for an access token, nor the reverse.
    this.stateKey = createHmac('sha256', secret).update('parcours-oidc-state').digest();
  }

  /** Discovery result per tenant configuration, cached for a few minutes. */
  async configuration(context: ContextRow, settings: OidcSettings): Promise<client.Configuration> {
    const key = [context.id, settings.issuer, settings.clientId, settings.clientSecret ?? ''].join('\u0000');
    const hit = this.configs.get(key);
    if (hit && hit.expires > Date.now()) return hit.config;
    const issuer = new URL(settings.issuer);
    // Plain HTTP only for a provider on this machine (tests, local demo).
    const insecure = issuer.protocol === 'http:' && isLoopback(issuer);
    let config: client.Configuration;
    try {
      config = await client.discovery(
        issuer,
        settings.clientId,
        settings.clientSecret,
        settings.clientSecret ? client.ClientSecretPost(settings.clientSecret) : client.None(),
        insecure ? { execute: [client.allowInsecureRequests] } : undefined,
      );
    } catch (err) {
      throw new ApiError(
        502,
        'UNDEFINED',
        `The identity provider is unreachable (${(err as Error).message}).`,
      );
    }
    if (this.configs.size > 100) this.configs.clear();
    this.configs.set(key, { config, expires: Date.now() + CONFIG_TTL_MS });
    return config;
  }

  async startLogin(
    context: ContextRow,
    settings: OidcSettings,
    redirectUri: string,
  ): Promise<{ url: string; cookie: string }> {
    const config = await this.configuration(context, settings);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: settings.scope ?? DEFAULT_SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const cookie = await new SignJWT({ ctx: context.id, state, nonce, verifier } satisfies OidcStatePayload)
      .setProtectedHeader({ alg: 'HS256', typ: 'oidc-state' })
      .setAudience('parcours-oidc-state')
      .setIssuedAt()
      .setExpirationTime(`${STATE_TTL_S}s`)
      .sign(this.stateKey);
    return { url: url.href, cookie };
  }

  async readState(cookie: string | undefined, contextId: string): Promise<OidcStatePayload | null> {
    if (!cookie) return null;
    try {
      const { payload } = await jwtVerify(cookie, this.stateKey, {
        algorithms: ['HS256'],
        audience: 'parcours-oidc-state',
        typ: 'oidc-state',
      });
      const p = payload as Partial<OidcStatePayload>;
      if (
        p.ctx !== contextId ||
        typeof p.state !== 'string' ||
        typeof p.nonce !== 'string' ||
        typeof p.verifier !== 'string'
      )
        return null;
      return { ctx: p.ctx, state: p.state, nonce: p.nonce, verifier: p.verifier };
    } catch {
      return null;
    }
  }

  /** Exchanges the code (PKCE, state, nonce checked by openid-client) and returns the claims. */
  async finishLogin(
    context: ContextRow,
    settings: OidcSettings,
    currentUrl: URL,
    state: OidcStatePayload,
  ): Promise<OidcClaims> {
    const config = await this.configuration(context, settings);
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: state.verifier,
      expectedState: state.state,
      expectedNonce: state.nonce,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('no ID token');
    let claims: Record<string, unknown> = { ...idClaims };
    if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
      const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      claims = { ...info, ...idClaims };
    }
    return claimsOf(claims);
  }

  /**
   * The account of an SSO identity: by subject, else by verified e-mail (linked to the subject
   * from then on), else a new learner of the tenant.
   */
  async accountFor(context: ContextRow, claims: OidcClaims, now: Date): Promise<UserRow> {
    const bySubject = await findUserByOidcSubject(this.db, context.id, claims.sub);
    if (bySubject) return bySubject;
    const nowIso = now.toISOString();
    if (claims.email && claims.emailVerified) {
      const byEmail = await findUserByEmail(this.db, context.id, claims.email);
      if (byEmail) {
        if (byEmail.oidcSubject && byEmail.oidcSubject !== claims.sub) {
          throw new ApiError(403, 'Forbidden', 'This e-mail is linked to another SSO identity.');
        }
        await this.db.transaction().execute(async (trx) => {
          await updateUser(trx, context.id, byEmail.id, { oidcSubject: claims.sub, updatedAt: nowIso });
        });
        return { ...byEmail, oidcSubject: claims.sub };
      }
    }
    const id = newId();
    try {
      await this.db.transaction().execute(async (trx) => {
        await insertUser(trx, {
          id,
          contextId: context.id,
          // An unverified e-mail is not recorded: it could be someone else's.
          email: claims.email && claims.emailVerified ? claims.email.toLowerCase() : '',
          username: null,
          firstname: claims.firstname,
          lastname: claims.lastname,
          avatarId: null,
          birthday: null,
          legal: '{}',
          passwordHash: null,
          tincanIdentifier: null,
          preferredLocale: claims.locale,
          oidcSubject: claims.sub,
          tokensValidAfter: null,
          createdAt: nowIso,
          updatedAt: nowIso,
        });
      });
    } catch (err) {
      // The same identity signing in twice at once: the other request created it.
      if (uniqueViolation(err) === 'oidc') {
        const again = await findUserByOidcSubject(this.db, context.id, claims.sub);
        if (again) return again;
      }
      if (uniqueViolation(err) === 'email')
        throw new ApiError(409, 'UNIQUE_USERNAME_OR_EMAIL', 'This e-mail is already in use.');
      throw err;
    }
    const created = await findUserByOidcSubject(this.db, context.id, claims.sub);
    if (!created) throw new Error('SSO account not found after creation');
    return created;
  }
}

export interface OidcClaims {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  firstname: string | null;
  lastname: string | null;
  locale: 'fr' | 'en' | null;
}

function str(value: unknown, max = 254): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null;
}

export function claimsOf(raw: Record<string, unknown>): OidcClaims {
  const sub = str(raw.sub, 255);
  if (!sub) throw new Error('no subject');
  const locale = str(raw.locale)?.slice(0, 2).toLowerCase();
  return {
    sub,
    email: str(raw.email),
    emailVerified: raw.email_verified === true,
    firstname: str(raw.given_name, 60),
    lastname: str(raw.family_name, 60),
    locale: locale === 'fr' || locale === 'en' ? locale : null,
  };
}
