/**
 * Launches of package pages (issue 31, decision 0048). The player asks for one with the launch
 * the server issued with the page (`tincanLaunch`, decision 0009): it gets the bridge's URL on the
 * packages origin, with the launch's secret in the URL fragment (never sent to a server, never in
 * a Referer). The bridge then speaks for that one learner, page and launch, nothing else.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db, DbKind } from '../../db/db';
import { parseJson } from '../../db/schema';
import type { PackageLaunchesTable } from '../../db/schema';
import type { Selectable } from 'kysely';
import { ApiError } from '../../plugins/errors';
import { LAUNCH_TTL_MS, sameSecret } from '../lrs/credentials';
import { writeTx } from '../../db/tx';
import { budgetOf, spend } from '../quotas/budget';
import { notFound } from '../scope';
import { stableId } from '../../lib/ids';

export type LaunchRow = Selectable<PackageLaunchesTable>;

/** cmi5 §10.2.2: how an AU is launched; Browse and Review record no completed, passed or failed. */
export const LAUNCH_MODES = ['Normal', 'Browse', 'Review'] as const;
export type LaunchMode = (typeof LAUNCH_MODES)[number];

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The package a block plays, as the importer stored it in the block's content. */
export interface BlockPackage {
  id: string;
  kind: 'scorm12' | 'scorm2004' | 'cmi5' | 'xapi';
}

export function blockPackageOf(content: string | null | undefined): BlockPackage | null {
  const p = parseJson<{ package?: { id?: unknown; kind?: unknown } }>(content, {}).package;
  if (!p || typeof p.id !== 'string' || !p.id) return null;
  const kind = p.kind;
  if (kind !== 'scorm12' && kind !== 'scorm2004' && kind !== 'cmi5' && kind !== 'xapi') return null;
  return { id: p.id, kind };
}

/**
 * cmi5 registration of a page: one per learner's attempt of the page (a retry is a new page and
 * a new registration), a UUID derived from the page id.
 */
export const registrationOfPage = (pageId: string) => stableId('cmi5-registration', pageId);

/** The packages origin for a request: PACKAGES_ORIGIN, else the app's host name on the packages port. */
export function packagesOriginOf(request: FastifyRequest, configured: string | null, port: number): string {
  if (configured) return configured;
  const host =
    request.hostname.includes(':') && !request.hostname.startsWith('[')
      ? `[${request.hostname}]`
      : request.hostname;
  return `${request.protocol}://${host}:${port}`;
}

export interface LaunchAnswer {
  url: string;
  origin: string;
  expiresAt: string;
}

/**
 * POST /api/packages/launches: a new launch of the learner's own unanswered package page, with
 * the page's launch; 404 for any other page, 403 without the right launch.
 */
export async function createLaunch(
  db: Db,
  kind: DbKind,
  request: FastifyRequest,
  userId: string,
  body: { lessonId: string; pageId: string; launch: string; au?: number; launchMode?: LaunchMode },
  packagesOrigin: string,
  now: Date,
): Promise<LaunchAnswer> {
  const contextId = request.context.id;
  const row = await db
    .selectFrom('lessonPages as p')
    .innerJoin('lessons as l', 'l.id', 'p.lessonId')
    .innerJoin('courseNodes as n', 'n.id', 'p.nodeId')
    .innerJoin('courseBlocks as b', 'b.id', 'n.blockId')
    .select([
      'p.id as pageId',
      'p.lessonId',
      'p.launchToken',
      'p.timeSpent',
      'p.answeredAt',
      'b.id as blockId',
      'b.type',
      'b.content',
    ])
    .where('p.id', '=', body.pageId)
    .where('l.id', '=', body.lessonId)
    .where('l.userId', '=', userId)
    .where('l.contextId', '=', contextId)
    .executeTakeFirst();
  const pkg = row?.type === 'tincan' ? blockPackageOf(row.content) : null;
  if (!row || !pkg) throw notFound('Package page');
  // cmi5: a course once satisfied plays again (its launch is cleared with the score), in the same
  // registration (issue 39); anything else needs the page's launch.
  const relaunch = pkg.kind === 'cmi5' && !row.launchToken && row.answeredAt !== null;
  if (!relaunch && !sameSecret(row.launchToken, body.launch))
    throw new ApiError(403, 'Forbidden', 'This is not the launch issued for this page.', {
      pointer: '/launch',
    });
  const key = randomBytes(16).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + LAUNCH_TTL_MS).toISOString();
  const budget = budgetOf(db);
  await writeTx(db, kind, async (trx) => {
    // A launch row per call: charged to its learner like any write (issue 36).
    await spend(trx, budget, { contextId, userId, road: 'launches', rows: 1, bytes: 0 }, now);
    await trx
      .insertInto('packageLaunches')
      .values({
        key,
        contextId,
        userId,
        lessonId: row.lessonId,
        pageId: row.pageId,
        blockId: row.blockId,
        packageId: pkg.id,
        kind: pkg.kind,
        secretHash: sha256(secret),
        appOrigin: `${request.protocol}://${request.host}`,
        registration: registrationOfPage(row.pageId),
        sessionId: randomUUID(),
        timeBase: row.timeSpent,
        auIndex: pkg.kind === 'cmi5' ? (body.au ?? 0) : 0,
        launchMode: pkg.kind === 'cmi5' ? (body.launchMode ?? 'Normal') : 'Normal',
        createdAt: now.toISOString(),
        expiresAt,
      })
      .execute();
  });
  return { url: `${packagesOrigin}/launch/${key}#${secret}`, origin: packagesOrigin, expiresAt };
}

/** 401 for the bridge: the launch is unknown, the secret wrong, or the launch over. */
export const unauthorized = () =>
  new ApiError(401, 'UNAUTHORIZED', 'This package launch is unknown, expired or ended.');

/** The launch `key` names, if it is still usable (not expired, not abandoned). */
export async function liveLaunch(db: Db, key: string, now: Date): Promise<LaunchRow | null> {
  if (!/^[0-9a-f]{32}$/.test(key)) return null;
  const row = await db.selectFrom('packageLaunches').selectAll().where('key', '=', key).executeTakeFirst();
  if (!row || row.expiresAt <= now.toISOString() || row.abandonedAt) return null;
  return row;
}

/**
 * The launch a bridge request speaks for: `key` and its secret (`Authorization: Bearer`, or
 * `auth` in a beacon's body). A sign-out everywhere or a password change ends it, as it ends
 * the learner's LRS credentials.
 */
export async function authenticateLaunch(
  db: Db,
  key: string,
  secret: string | null,
  now: Date,
): Promise<LaunchRow> {
  const row = await liveLaunch(db, key, now);
  if (!row || !secret) throw unauthorized();
  const a = Buffer.from(row.secretHash);
  const b = Buffer.from(sha256(secret));
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw unauthorized();
  const user = await db
    .selectFrom('users')
    .select('tokensValidAfter')
    .where('id', '=', row.userId)
    .executeTakeFirst();
  if (!user || (user.tokensValidAfter && row.createdAt <= user.tokensValidAfter)) throw unauthorized();
  return row;
}

export function bearerOf(header: string | undefined): string | null {
  const m = /^Bearer\s+([A-Za-z0-9_-]{20,100})\s*$/.exec(header ?? '');
  return m?.[1] ?? null;
}
