import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import { SYSTEM_ROLES } from '@parcours/domain/entities';
import type { SystemRole } from '@parcours/domain/entities';
import type { Db } from '../db/db';
import type { UserRow } from '../modules/users/repository';
import { STAMP_HEADER, ViewerCopy, parseStamp } from '../lib/viewer-copy';
import { ApiError } from './errors';

/** The signed-in user of a request, loaded once by `requireUser`. */
export interface AuthUser {
  id: string;
  row: UserRow;
  roles: SystemRole[];
  /** superadmin or admin (docs/product.md §6 is_admin). */
  isAdmin: boolean;
  /**
   * The home's version stamps (lib/home-versions.ts), from the viewer copy (lib/viewer-copy.ts)
   * or read with the user in the same statement.
   */
  homeVersions?: { user: string; content: string };
  /** The session the request's token belongs to (decision 0057), set by `requireUser`. */
  session?: SessionOfToken;
}

/**
 * A session: one sign-in on one device and every renewal of its token (decision 0057). `id` is
 * the tokens' `sid` (random), or for a token signed before that claim existed a key made from
 * the token itself; `authAt` the sign-in, in seconds (`sat`; the token's `iat` when absent).
 */
export interface SessionOfToken {
  id: string;
  authAt: number;
  /** The token's own expiry, in seconds. */
  exp: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyInstance {
    auth: Auth;
  }
  interface FastifyContextConfig {
    /** A GET that may write (the player's first open of a lesson): answered like a write. */
    writes?: boolean;
  }
}

export const TOKEN_LIFETIME_S = 8 * 60 * 60;

export interface Auth {
  /** A token for a new session, or, given `session`, the next token of that session (a renewal). */
  sign(
    userId: string,
    contextId: string,
    now?: Date,
    session?: Pick<SessionOfToken, 'id' | 'authAt'>,
  ): Promise<string>;
  /**
   * The next token of the request's session (POST users/token), or null once the session has
   * reached its absolute lifetime: a renewal would not outlive the token it replaces.
   */
  renew(request: FastifyRequest, now?: Date): Promise<string | null>;
  /** When the request's session ends at the latest (its sign-in plus SESSION_MAX_HOURS), in seconds. */
  sessionEnd(session: Pick<SessionOfToken, 'authAt'>): number;
  /** preHandler: 401 UNAUTHORIZED unless a valid bearer token of this tenant is present. */
  requireUser(request: FastifyRequest): Promise<void>;
  /** Same, also reading `?access_token=` (docs/product.md §7 `users/me?access_token`). */
  requireUserOrQueryToken(request: FastifyRequest): Promise<void>;
  /**
   * `requireUser` for the home's cached reads (lib/answer-cache.ts). Every route now gets the
   * stamps with the viewer (from the copy), so it is the same check; kept for the routes' intent.
   */
  requireHomeUser(request: FastifyRequest): Promise<void>;
  /**
   * The user of `token` on the tenant `contextId`, checked as `requireUser` checks a bearer
   * (signature, tenant, revocation, sign-out), with their stamps; null when it is refused. The
   * key of a drawn page (plugins/drawn-page-cache.ts, decision 0061).
   */
  userOfToken(contextId: string, token: string): Promise<AuthUser | null>;
}

const SYSTEM = new Set<string>(SYSTEM_ROLES);

/** The identity routes (docs/api.md "Identity and account"): a reset, a registration, a sign-in. */
const accountWrite = (request: FastifyRequest) => request.url.startsWith('/api/users');

/** The claims of a verified token. */
interface Claims {
  sub: string;
  ctx: string;
  iat: number;
  exp: number;
  /** Issue time in milliseconds: `iat` has whole seconds, too coarse to order a token against a revocation in the same second. */
  iatMs?: number;
  /** The session (decision 0057): its id and its sign-in time in seconds, the same for every renewal. */
  sid?: string;
  sat?: number;
}

/** The session key of a token signed before `sid` existed: its own hash, so it can be ended alone. */
const legacySessionKey = (token: string) =>
  `t:${createHash('sha256').update(token).digest('base64url').slice(0, 32)}`;

/** About the number of learners signed in at once on one process; beyond, the cache starts over. */
const MAX_VERIFIED_TOKENS = 20_000;

/** The last Authorization header of a connection and the token read from it. */
const LAST_BEARER = Symbol('parcours.lastBearer');
interface LastBearer {
  header: string;
  token: string | null;
}
type RememberingSocket = { [LAST_BEARER]?: LastBearer } | undefined;

/**
 * The bearer token of the request. A client sends the same header on every request of its
 * connection: the token read from it the last time is given back when the header is the same,
 * the same string, whose hash the verified tokens' map (below) has already computed — reading it
 * anew made and hashed a string of some 300 characters on every request (issue 38 item 4).
 */
function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const socket = request.raw.socket as RememberingSocket;
  const last = socket?.[LAST_BEARER];
  if (last?.header === header) return last.token;
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? null;
  if (socket) socket[LAST_BEARER] = { header, token };
  return token;
}

/**
 * HS256 tokens carrying `sub` (user), `ctx` (tenant), `iat`, `exp`. The API keeps no session,
 * so every API process must be given the same JWT_SECRET (server.ts persists one otherwise).
 */
export function registerAuth(
  app: FastifyInstance,
  { db, secret, sessionMaxS }: { db: Db; secret: string; sessionMaxS: number },
): Auth {
  const key = new TextEncoder().encode(secret);
  // Imported once: given raw bytes, jose imports a WebCrypto key on every sign and verify, which
  // was the largest single cost of authenticating a request.
  const cryptoKey = crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  const unauthorized = (detail: string) => new ApiError(401, 'UNAUTHORIZED', detail);

  // The viewer, their roles and the home's stamps, kept current by the database's notifications
  // (PostgreSQL) or its change counters (SQLite): revocation is seen within the notification's
  // delay by every process, at once by the one that wrote it (decision 0059).
  const copy = new ViewerCopy(db);
  app.addHook('onClose', async () => copy.close());
  // Read-your-writes: a signed-in write's answer says the stamp it left, which the web app sends
  // back with its reads, so a process whose copy is behind that stamp reads the database. An
  // account write by no one signed in (a password reset by link, under /api/users) or any write by
  // an administrator (an erasure, a role: writes about other people) answers once this process's
  // copy has heard of every commit so far, so the process that wrote never shows the state before
  // it (other processes: within the delay). Other writes without a viewer (a package's xAPI
  // statements) do not wait: they change no one's sign-in.
  // A callback hook: a read (nearly every request) passes in the same turn, without the promise
  // and microtask of an async hook.
  app.addHook('onSend', (request, reply, payload, done) => {
    const method = request.method;
    const read = method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
    if (read && (request.routeOptions.config.writes !== true || unwritten.has(request)))
      return done(null, payload);
    afterWrite(request, reply).then(() => done(null, payload), done);
  });
  async function afterWrite(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const user = request.user;
    const heard = (user ? user.isAdmin : accountWrite(request)) ? copy.caughtUp() : null;
    if (user && reply.statusCode < 400) {
      // The write is committed: a failed read of its stamp must not answer it as failed. Without
      // the header the client keeps its last stamp, and another process shows it within the delay.
      const stamp = await copy.stampAfterWrite(request.context.id, user.id).catch(() => null);
      if (stamp) reply.header(STAMP_HEADER, stamp);
    }
    await heard;
  }

  // Tokens whose signature was verified, so that a learner's many requests pay for one HMAC:
  // the verdict depends only on the token text and the key, so a hit returns exactly what
  // jwtVerify returned. Expiry is re-checked on every hit; revocation (`tokens_valid_after`)
  // is checked on every request against the viewer's row (the copy's). Bounded: cleared when full.
  const verified = new Map<string, Claims>();

  async function claimsOf(token: string): Promise<Claims> {
    const hit = verified.get(token);
    // Same rule as jose: a token is expired once `exp` is not after the current second.
    if (hit && hit.exp > Math.floor(Date.now() / 1000)) return hit;
    let payload;
    try {
      ({ payload } = await jwtVerify(token, await cryptoKey, { algorithms: ['HS256'] }));
    } catch {
      verified.delete(token);
      throw unauthorized('The token is invalid or expired.');
    }
    const { sub, ctx, iat, exp, iatMs, sid, sat } = payload;
    // Every token of ours carries these four; anything else was not issued by `sign`.
    if (
      typeof sub !== 'string' ||
      typeof ctx !== 'string' ||
      typeof iat !== 'number' ||
      typeof exp !== 'number'
    ) {
      throw unauthorized('The token is invalid or expired.');
    }
    if (
      (iatMs !== undefined && typeof iatMs !== 'number') ||
      (sid !== undefined && typeof sid !== 'string') ||
      (sat !== undefined && typeof sat !== 'number')
    )
      throw unauthorized('The token is invalid or expired.');
    if (verified.size >= MAX_VERIFIED_TOKENS) verified.clear();
    const claims: Claims = {
      sub,
      ctx,
      iat,
      exp,
      ...(iatMs !== undefined ? { iatMs } : {}),
      ...(sid !== undefined ? { sid } : {}),
      ...(sat !== undefined ? { sat } : {}),
    };
    verified.set(token, claims);
    return claims;
  }

  async function authenticate(request: FastifyRequest, token: string | null): Promise<void> {
    if (!token) throw unauthorized('A bearer token is required.');
    request.user = await userOf(request.context.id, token, request.headers[STAMP_HEADER]);
  }

  /** The user of `token` on the tenant `contextId`, or a 401 ApiError: every check of a bearer. */
  async function userOf(contextId: string, token: string, stampHeader: unknown): Promise<AuthUser> {
    const { sub, ctx, iat, iatMs, exp, sid, sat } = await claimsOf(token);
    // A token is only good on the tenant that issued it.
    if (ctx !== contextId) throw unauthorized('The token belongs to another tenant.');
    const session: SessionOfToken = { id: sid ?? legacySessionKey(token), authAt: sat ?? iat, exp };
    // Revocation (`tokens_valid_after`, and this session's sign-out) is checked here on every
    // request, cached answer or not, against the viewer kept in this process (decision 0059): a
    // sign-out moves the user's stamp like any other revocation (migration 0028).
    const viewer = await copy.viewer(contextId, sub, parseStamp(stampHeader));
    if (!viewer) throw unauthorized('The token is invalid or expired.');
    if (viewer.endedSessions.includes(session.id)) throw unauthorized('The session was ended (sign-out).');
    const { row } = viewer;
    if (row.tokensValidAfter) {
      // Refused when issued before the revocation, to the millisecond (`iatMs`). Tokens signed
      // before that claim existed have whole seconds only: one issued in the revocation's second
      // gets the benefit of the doubt, since the new token of a password change is signed then.
      const validAfter = Date.parse(row.tokensValidAfter);
      const issued = iatMs ?? iat * 1000 + 999;
      if (Number.isFinite(validAfter) && issued < validAfter) throw unauthorized('The token was revoked.');
    }
    const roles = viewer.roleNames.filter((r): r is SystemRole => SYSTEM.has(r));
    const user: AuthUser = { id: row.id, row, roles, isAdmin: roles.length > 0, session };
    if (viewer.versions) user.homeVersions = viewer.versions;
    return user;
  }

  const sessionEnd = (session: Pick<SessionOfToken, 'authAt'>) => session.authAt + sessionMaxS;

  const auth: Auth = {
    async sign(userId, contextId, now = new Date(), session) {
      const iat = Math.floor(now.getTime() / 1000);
      const sid = session?.id ?? randomBytes(16).toString('base64url');
      const sat = session?.authAt ?? iat;
      // No token of a session outlives the session's absolute lifetime (decision 0057).
      return new SignJWT({ ctx: contextId, iatMs: now.getTime(), sid, sat })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt(iat)
        .setExpirationTime(Math.min(iat + TOKEN_LIFETIME_S, sessionEnd({ authAt: sat })))
        .sign(await cryptoKey);
    },
    async renew(request, now = new Date()) {
      const { id, session } = currentUser(request);
      if (!session) return null;
      const iat = Math.floor(now.getTime() / 1000);
      if (Math.min(iat + TOKEN_LIFETIME_S, sessionEnd(session)) <= session.exp) return null;
      return auth.sign(id, request.context.id, now, session);
    },
    sessionEnd,
    async requireUser(request) {
      await authenticate(request, bearer(request));
    },
    async requireUserOrQueryToken(request) {
      const query = request.query as Record<string, unknown> | undefined;
      const fromQuery = typeof query?.access_token === 'string' ? query.access_token : null;
      await authenticate(request, bearer(request) ?? fromQuery);
    },
    async requireHomeUser(request) {
      await authenticate(request, bearer(request));
    },
    async userOfToken(contextId, token) {
      return userOf(contextId, token, undefined).catch((error: unknown) => {
        if (error instanceof ApiError && error.statusCode === 401) return null;
        throw error;
      });
    },
  };

  app.decorateRequest('user', null);
  app.decorate('auth', auth);
  return auth;
}

/** Reads of a route that may write (`config.writes`) which wrote nothing: answered as reads. */
const unwritten = new WeakSet<FastifyRequest>();

/**
 * Says that `request` wrote nothing (an answer sent from the answer cache, lib/answer-cache.ts):
 * even on a route that may write, its answer needs no stamp read back (one statement less on
 * PostgreSQL for each cached player page).
 */
export function wroteNothing(request: FastifyRequest): void {
  unwritten.add(request);
}

/** The user set by `requireUser`; calling it on a public route is a programming error. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new ApiError(401, 'UNAUTHORIZED', 'A bearer token is required.');
  return request.user;
}
