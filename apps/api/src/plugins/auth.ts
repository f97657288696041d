import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import { SYSTEM_ROLES } from '@parcours/domain/entities';
import type { SystemRole } from '@parcours/domain/entities';
import type { Db } from '../db/db';
import { findSystemRoleNames, findUserById } from '../modules/users/repository';
import type { UserRow } from '../modules/users/repository';
import { ApiError } from './errors';

/** The signed-in user of a request, loaded once by `requireUser`. */
export interface AuthUser {
  id: string;
  row: UserRow;
  roles: SystemRole[];
  /** superadmin or admin (SPEC §6 is_admin). */
  isAdmin: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyInstance {
    auth: Auth;
  }
}

export const TOKEN_LIFETIME_S = 8 * 60 * 60;

export interface Auth {
  sign(userId: string, contextId: string, now?: Date): Promise<string>;
  /** preHandler: 401 UNAUTHORIZED unless a valid bearer token of this tenant is present. */
  requireUser(request: FastifyRequest): Promise<void>;
  /** Same, also reading `?access_token=` (SPEC §7 `users/me?access_token`). */
  requireUserOrQueryToken(request: FastifyRequest): Promise<void>;
}

const SYSTEM = new Set<string>(SYSTEM_ROLES);

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

/**
 * HS256 tokens carrying `sub` (user), `ctx` (tenant), `iat`, `exp`. The API keeps no session,
 * so every API process must be given the same JWT_SECRET (server.ts persists one otherwise).
 */
export function registerAuth(app: FastifyInstance, { db, secret }: { db: Db; secret: string }): Auth {
  const key = new TextEncoder().encode(secret);
  const unauthorized = (detail: string) => new ApiError(401, 'UNAUTHORIZED', detail);

  async function authenticate(request: FastifyRequest, token: string | null): Promise<void> {
    if (!token) throw unauthorized('A bearer token is required.');
    let payload;
    try {
      ({ payload } = await jwtVerify(token, key, { algorithms: ['HS256'] }));
    } catch {
      throw unauthorized('The token is invalid or expired.');
    }
    const { sub, ctx, iat } = payload;
    if (typeof sub !== 'string' || typeof ctx !== 'string' || typeof iat !== 'number') {
      throw unauthorized('The token is invalid or expired.');
    }
    // A token is only good on the tenant that issued it.
    if (ctx !== request.context.id) throw unauthorized('The token belongs to another tenant.');
    const row = await findUserById(db, request.context.id, sub);
    if (!row) throw unauthorized('The token is invalid or expired.');
    if (row.tokensValidAfter) {
      // iat has one-second precision: compare in seconds so a token issued in the same second
      // as the revocation is not refused by rounding (revocations come before new sign-ins).
      const validAfter = Math.floor(Date.parse(row.tokensValidAfter) / 1000);
      if (Number.isFinite(validAfter) && iat < validAfter) throw unauthorized('The token was revoked.');
    }
    const roles = (await findSystemRoleNames(db, request.context.id, row.id)).filter((r): r is SystemRole => SYSTEM.has(r));
    request.user = { id: row.id, row, roles, isAdmin: roles.length > 0 };
  }

  const auth: Auth = {
    async sign(userId, contextId, now = new Date()) {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ ctx: contextId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + TOKEN_LIFETIME_S)
        .sign(key);
    },
    async requireUser(request) {
      await authenticate(request, bearer(request));
    },
    async requireUserOrQueryToken(request) {
      const query = request.query as Record<string, unknown> | undefined;
      const fromQuery = typeof query?.access_token === 'string' ? query.access_token : null;
      await authenticate(request, bearer(request) ?? fromQuery);
    },
  };

  app.decorateRequest('user', null);
  app.decorate('auth', auth);
  return auth;
}

/** The user set by `requireUser`; calling it on a public route is a programming error. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new ApiError(401, 'UNAUTHORIZED', 'A bearer token is required.');
  return request.user;
}
