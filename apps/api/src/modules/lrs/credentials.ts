import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db, DbKind } from '../../db/db';
import { parseJson } from '../../db/schema';
import type { ContextRow } from '../contexts/repository';
import { writeTx } from '../../db/tx';
import { budgetOf, spend } from '../quotas/budget';
import { NIL_UUID, UUID } from './statement-schema';
import type { Agent } from './statement-schema';

/**
 * HTTP Basic credentials of the LRS (decision 0017): issued to one learner for one launch of a
 * learning-module page, valid for LAUNCH_TTL_MS, stored as the SHA-256 of a 256-bit secret.
 * They speak for that learner only: they write statements whose actor is the learner and read
 * the learner's statements, nothing else.
 */
export const LAUNCH_TTL_MS = 8 * 60 * 60 * 1000;

export interface Credential {
  key: string;
  contextId: string;
  userId: string;
  lessonId: string;
  pageId: string;
  registration: string;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The account homePage of the tenant's learners: its app origin (`hosts.app`), else a URN of the
 * tenant, so a learner's actor is the same whatever host the request came by.
 */
export function homePageOf(context: Pick<ContextRow, 'alias' | 'hosts'>): string {
  const hosts = parseJson<{ app?: unknown }>(context.hosts, {});
  if (typeof hosts.app === 'string') {
    try {
      return new URL(hosts.app).origin;
    } catch {
      // A malformed stored host falls through.
    }
  }
  return `urn:parcours:tenant:${context.alias}`;
}

/** docs/product.md §7: the learner as an xAPI agent, named by `tincanIdentifier`, identified by account. */
export function learnerAgent(
  context: Pick<ContextRow, 'alias' | 'hosts'>,
  user: { id: string; tincanIdentifier: string | null },
): Agent {
  return {
    objectType: 'Agent',
    ...(user.tincanIdentifier ? { name: user.tincanIdentifier } : {}),
    account: { homePage: homePageOf(context), name: user.id },
  };
}

/** docs/product.md §7: the registration is the block id, else the nil UUID. */
export const registrationOf = (blockId: string | null) =>
  blockId && UUID.test(blockId) ? blockId.toLowerCase() : NIL_UUID;

export interface LaunchTarget {
  userId: string;
  lessonId: string;
  pageId: string;
  blockId: string | null;
  launchToken: string | null;
}

/** The learner's own unanswered learning-module page with its launch (null otherwise). */
export async function launchTarget(
  db: Db,
  contextId: string,
  userId: string,
  lessonId: string,
  pageId: string,
): Promise<LaunchTarget | null> {
  const row = await db
    .selectFrom('lessonPages as p')
    .innerJoin('lessons as l', 'l.id', 'p.lessonId')
    .innerJoin('courseNodes as n', 'n.id', 'p.nodeId')
    .innerJoin('courseBlocks as b', 'b.id', 'n.blockId')
    .select(['p.id as pageId', 'p.lessonId', 'p.launchToken', 'b.id as blockId', 'b.type'])
    .where('p.id', '=', pageId)
    .where('l.id', '=', lessonId)
    .where('l.userId', '=', userId)
    .where('l.contextId', '=', contextId)
    .executeTakeFirst();
  if (row?.type !== 'tincan') return null;
  return { userId, lessonId, pageId: row.pageId, blockId: row.blockId, launchToken: row.launchToken };
}

export function sameSecret(issued: string | null, given: string): boolean {
  if (!issued) return false;
  const a = Buffer.from(issued);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** New credentials for one launch; the secret is returned once, only its hash is kept. */
export async function issueCredential(
  db: Db,
  kind: DbKind,
  contextId: string,
  target: LaunchTarget,
  now: Date,
): Promise<{ credential: Credential; secret: string; expiresAt: string }> {
  const key = randomBytes(16).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + LAUNCH_TTL_MS).toISOString();
  const credential: Credential = {
    key,
    contextId,
    userId: target.userId,
    lessonId: target.lessonId,
    pageId: target.pageId,
    registration: registrationOf(target.blockId),
  };
  const budget = budgetOf(db);
  await writeTx(db, kind, async (trx) => {
    // Credentials per call: charged to their learner like any write (issue 36).
    await spend(trx, budget, { contextId, userId: target.userId, road: 'launches', rows: 1, bytes: 0 }, now);
    await trx
      .insertInto('xapiCredentials')
      .values({ ...credential, secretHash: sha256(secret), expiresAt, createdAt: now.toISOString() })
      .execute();
  });
  return { credential, secret, expiresAt };
}

/** Credentials expired for a day are of no use to anyone: removed by the LRS worker. */
export async function purgeExpiredCredentials(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString();
  const res = await db.deleteFrom('xapiCredentials').where('expiresAt', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}
