/**
 * What a cmi5 AU recorded in a registration (issue 39; cmi5 spec §9.3): its cmi5 defined
 * statements read back, for moveOn (cmi5-satisfaction.ts) and for the status the player lists
 * (decision 0071). Reads only: nothing here scores or emits, so the page read may use it.
 */
import type { AuStatus } from '@parcours/domain/entities';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import { auSettings } from '../../content/packages/manifest';
import type { Cmi5Settings } from '../../content/packages/manifest';
import type { StoredStatement } from '../lrs/store';
import { auStatus } from './au-status';
import type { AuStatusRecord } from './au-status';
import type { LaunchRow } from './launches';
import { fractionOf } from './move-on';
import { CMI5_CATEGORY, VERBS } from './statements';

/** The AU's activity id for this LMS (§8.1.5): stable for the block, never the publisher's id. */
export const auActivityId = (blockId: string, auId: string) =>
  `urn:parcours:block:${blockId}/au/${encodeURIComponent(auId)}`;

/** The verbs an AU's record reads (migration 0034 moves the learner's stamp on each). */
export const CMI5_RECORD_VERBS: string[] = [
  VERBS.launched.id,
  VERBS.completed.id,
  VERBS.passed.id,
  VERBS.failed.id,
  VERBS.terminated.id,
  VERBS.waived.id,
];

function isCmi5Defined(s: StoredStatement['body'], activityId: string): boolean {
  const cats = (s.context as { contextActivities?: { category?: { id?: string }[] } } | undefined)
    ?.contextActivities?.category;
  const obj = s.object as { id?: string };
  return Array.isArray(cats) && cats.some((c) => c?.id === CMI5_CATEGORY) && obj.id === activityId;
}

export type Cmi5Record = AuStatusRecord;

/**
 * What the AU recorded in the registration: its cmi5 defined verbs (launched by the LMS included)
 * and its passed or failed score.
 */
export async function auRecord(
  db: Db,
  launch: Pick<LaunchRow, 'contextId' | 'userId' | 'registration'>,
  activityId: string,
): Promise<Cmi5Record> {
  const rows = await db
    .selectFrom('xapiStatements')
    .select(['verbId', 'body'])
    .where('contextId', '=', launch.contextId)
    .where('userId', '=', launch.userId)
    .where('registration', '=', launch.registration)
    .where('activityId', '=', activityId)
    .where('verbId', 'in', CMI5_RECORD_VERBS)
    .where('voided', '=', 0)
    .execute();
  const r: Cmi5Record = {
    completed: false,
    passed: false,
    failed: false,
    score: null,
    ended: false,
    waived: false,
    launched: false,
  };
  let failedScore: number | null = null;
  for (const row of rows) {
    const body = parseJson<StoredStatement['body'] | null>(row.body, null);
    if (!body || !isCmi5Defined(body, activityId)) continue;
    const score = fractionOf(body.result?.score);
    if (row.verbId === VERBS.completed.id) r.completed = true;
    else if (row.verbId === VERBS.passed.id) {
      r.passed = true;
      if (score !== null) r.score = score;
    } else if (row.verbId === VERBS.failed.id) {
      r.failed = true;
      if (score !== null) failedScore = score;
    } else if (row.verbId === VERBS.terminated.id) r.ended = true;
    else if (row.verbId === VERBS.waived.id) r.waived = true;
    else if (row.verbId === VERBS.launched.id) r.launched = true;
  }
  if (!r.passed && failedScore !== null) r.score = failedScore;
  return r;
}

/**
 * Each AU's status in the registration (decision 0071), in the course's order: read from the
 * learner's own statements of that registration only, so another learner's never show.
 */
export async function auStatuses(
  db: Db,
  launch: Pick<LaunchRow, 'contextId' | 'userId' | 'registration' | 'blockId'>,
  course: Cmi5Settings,
): Promise<AuStatus[]> {
  const out: AuStatus[] = [];
  for (let i = 0; ; i++) {
    const au = auSettings(course, i);
    if (!au) return out;
    out.push(auStatus(au.moveOn, await auRecord(db, launch, auActivityId(launch.blockId, au.auId))));
  }
}
