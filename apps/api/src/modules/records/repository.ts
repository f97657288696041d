import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { Database, RecordsTable } from '../../db/schema';
import { parseJson } from '../../db/schema';
import { stableId } from '../../lib/ids';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { Viewer } from '../scope';
import { countRows, withSort } from '../scope';

export type RecordRow = Selectable<RecordsTable>;

/** `userIds` were checked by the route (oneself, or anyone of the tenant for administrators). */
export async function listRecords(
  db: Db,
  v: Viewer,
  userIds: string[],
  q: JsonApiQuery,
  before: string | null,
): Promise<{ rows: RecordRow[]; total: number }> {
  let qb = db
    .selectFrom('records as r')
    .where('r.contextId', '=', v.contextId)
    .where('r.userId', 'in', userIds);
  if (before) qb = qb.where('r.date', '<', before);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.selectAll('r'),
    q.sort,
    { date: 'r.date' },
    [{ field: 'date', desc: false }],
    'r.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

/**
 * A snapshot of the learner's score when a lesson ends (docs/product.md §3 Record): XP, pages done and
 * time, from the user row as the same transaction left it. One record per learner and UTC day
 * (deterministic id): a later completion that day updates it, so `date` is the day's last one.
 */
export async function writeDailyRecord(trx: Kysely<Database>, userId: string, now: Date): Promise<void> {
  const user = await trx
    .selectFrom('users')
    .select(['contextId', 'scoring', 'donePageCount', 'timeAlive'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return;
  const xp = Number(parseJson<{ xp?: unknown }>(user.scoring, {}).xp ?? 0);
  const scoring = JSON.stringify({
    xp: Number.isFinite(xp) ? xp : 0,
    donePageCount: user.donePageCount,
    timeAlive: user.timeAlive,
  });
  const iso = now.toISOString();
  await trx
    .insertInto('records')
    .values({
      id: stableId(userId, 'record', iso.slice(0, 10)),
      contextId: user.contextId,
      userId,
      date: iso,
      scoring,
    })
    .onConflict((oc) => oc.column('id').doUpdateSet({ date: iso, scoring }))
    .execute();
}
