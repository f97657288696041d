import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import { ApiError } from '../../plugins/errors';
import { homePageOf, sameSecret } from './credentials';
import type { Credential } from './credentials';
import type { Actor } from './statement-schema';

/**
 * Who calls the LRS (decision 0040): launch credentials (one learner, one launch, decision 0017)
 * or an LRS client a tenant administrator created, with the scopes of xAPI 1.0.3 §4.2.
 */
export const SCOPES = [
  'statements/write',
  'statements/read/mine',
  'statements/read',
  'state',
  'define',
  'profile',
  'all/read',
  'all',
] as const;
export type Scope = (typeof SCOPES)[number];

export interface Principal {
  key: string;
  contextId: string;
  /** Launch credentials: they speak for this learner only. Null for an LRS client. */
  launch: Credential | null;
  name: string;
  scopes: ReadonlySet<Scope>;
}

/** What a call needs; each maps to the scopes that grant it (xAPI-Communication.md §4.2 table). */
export type Need =
  | 'statements/write'
  | 'statements/read'
  | 'state/write'
  | 'state/read'
  | 'profile/write'
  | 'profile/read'
  | 'define/read';
const GRANTS: Record<Need, readonly Scope[]> = {
  'statements/write': ['statements/write', 'all'],
  'statements/read': ['statements/read', 'statements/read/mine', 'all/read', 'all'],
  'state/write': ['state', 'all'],
  'state/read': ['state', 'all/read', 'all'],
  'profile/write': ['profile', 'all'],
  'profile/read': ['profile', 'all/read', 'all'],
  'define/read': ['define', 'profile', 'statements/read', 'all/read', 'all'],
};

/** Launch credentials' narrow scope: their learner's statements, state and profile; reading activities. */
const LAUNCH_SCOPES: ReadonlySet<Scope> = new Set(['statements/write', 'statements/read/mine', 'state']);
const LAUNCH_NEEDS = new Set<Need>([
  'statements/write',
  'statements/read',
  'state/write',
  'state/read',
  'profile/read',
  'profile/write',
  'define/read',
]);

export const forbidden = (detail: string) => new ApiError(403, 'Forbidden', detail);

/** 403 unless the principal's scopes grant `need`. */
export function requireScope(p: Principal, need: Need): void {
  const ok = p.launch ? LAUNCH_NEEDS.has(need) : GRANTS[need].some((s) => p.scopes.has(s));
  if (!ok) throw forbidden(`These credentials do not have the scope for ${need}.`);
}

/** How far statements may be read: everything, what this client stored, or one learner's. */
export function readReach(p: Principal): 'all' | 'mine' | 'learner' {
  if (p.launch) return 'learner';
  return ['statements/read', 'all/read', 'all'].some((s) => p.scopes.has(s as Scope)) ? 'all' : 'mine';
}

/** The authority the LRS stamps on what a principal stores (xAPI-Data.md §2.4.9). */
export function authorityOf(request: FastifyRequest, p: Principal): Actor {
  const homePage = homePageOf(request.context);
  return p.launch
    ? { objectType: 'Agent', name: 'Parcours', account: { homePage, name: `launch/${p.key}` } }
    : { objectType: 'Agent', name: p.name, account: { homePage, name: `client/${p.key}` } };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const unauthorized = () =>
  new ApiError(401, 'UNAUTHORIZED', 'Learning record credentials are missing, wrong or expired.');

/** The principal of a request (`Authorization: Basic key:secret`), checked; 401 otherwise. */
export async function authenticate(db: Db, request: FastifyRequest, now: Date): Promise<Principal> {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!m?.[1]) throw unauthorized();
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw unauthorized();
  const key = decoded.slice(0, colon);
  const secret = sha256(decoded.slice(colon + 1));
  const contextId = request.context.id;
  const launch = await db
    .selectFrom('xapiCredentials as c')
    .innerJoin('users as u', 'u.id', 'c.userId')
    .selectAll('c')
    .select('u.tokensValidAfter')
    .where('c.key', '=', key)
    .where('c.contextId', '=', contextId)
    .executeTakeFirst();
  if (launch) {
    if (!sameSecret(launch.secretHash, secret) || launch.expiresAt <= now.toISOString()) throw unauthorized();
    // A password change or a sign-out everywhere revokes the launches made before it (R3-08).
    if (launch.tokensValidAfter && launch.createdAt <= launch.tokensValidAfter) throw unauthorized();
    const { secretHash: _s, expiresAt: _e, createdAt: _c, tokensValidAfter: _t, ...credential } = launch;
    return { key, contextId, launch: credential, name: 'launch', scopes: LAUNCH_SCOPES };
  }
  const client = await db
    .selectFrom('xapiClients')
    .select(['key', 'name', 'scopes', 'secretHash'])
    .where('key', '=', key)
    .where('contextId', '=', contextId)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  if (!client || !sameSecret(client.secretHash, secret)) throw unauthorized();
  const scopes = new Set(parseJson<Scope[]>(client.scopes, []));
  return { key, contextId, launch: null, name: client.name, scopes };
}
