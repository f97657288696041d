import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import type { Db } from '../../src/db/db';
import { JWT_SECRET } from './app';
import { hosts } from './fixtures';

/**
 * Merges settings into a tenant's stored settings. Call it before the app's first request on
 * that tenant: the tenant plugin caches contexts for 30 s.
 */
export async function patchContextSettings(
  db: Db,
  contextId: string,
  patch: Record<string, unknown>,
): Promise<void> {
  const row = await db
    .selectFrom('contexts')
    .select('settings')
    .where('id', '=', contextId)
    .executeTakeFirstOrThrow();
  const settings = { ...(JSON.parse(row.settings) as Record<string, unknown>), ...patch };
  await db
    .updateTable('contexts')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', contextId)
    .execute();
}

export function send(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: unknown,
  opts: { token?: string | undefined; host?: string; ip?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    remoteAddress: opts.ip ?? '127.0.0.1',
    headers: {
      host: opts.host ?? hosts.alpha,
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
}

/** The first error object of a JSON:API error document. */
export function firstError(res: LightMyRequestResponse): {
  status: string;
  code: string;
  detail?: string;
  source?: { pointer?: string };
} {
  return (
    res.json() as {
      errors: { status: string; code: string; detail?: string; source?: { pointer?: string } }[];
    }
  ).errors[0]!;
}

/** A token as the API signs it, issued at `issuedAt` (e.g. before a password change). */
export async function tokenIssuedAt(userId: string, contextId: string, issuedAt: Date): Promise<string> {
  const iat = Math.floor(issuedAt.getTime() / 1000);
  return new SignJWT({ ctx: contextId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .sign(new TextEncoder().encode(JWT_SECRET));
}
