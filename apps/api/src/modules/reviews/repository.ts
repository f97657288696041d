import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { ReviewsTable } from '../../db/schema';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { Tx } from '../../db/tx';
import type { Viewer } from '../scope';
import { countRows, visibleProgramIds, withSort } from '../scope';

export type ReviewRow = Selectable<ReviewsTable>;

/** `userIds` were checked by the service (oneself, or anyone of the tenant for administrators). */
export async function listReviews(
  db: Db,
  v: Viewer,
  userIds: string[],
  q: JsonApiQuery,
): Promise<{ rows: ReviewRow[]; total: number }> {
  let qb = db
    .selectFrom('reviews as r')
    .where('r.contextId', '=', v.contextId)
    .where('r.userId', 'in', userIds);
  const f = q.filters;
  if (f.resourceType) qb = qb.where('r.resourceType', 'in', f.resourceType);
  if (f.resourceId) qb = qb.where('r.resourceId', 'in', f.resourceId);
  if (f.classId) qb = qb.where('r.classId', 'in', f.classId);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.selectAll('r'),
    q.sort,
    { createdAt: 'r.createdAt' },
    [{ field: 'createdAt', desc: false }],
    'r.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

/** Whether the learner belongs to the class and the class follows the (visible) program. */
export async function followsProgram(
  db: Db,
  v: Viewer,
  classId: string,
  programId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('classPrograms as cp')
    .innerJoin('classUsers as cu', 'cu.classId', 'cp.classId')
    .innerJoin('classes as c', 'c.id', 'cp.classId')
    .select('cp.id')
    .where('cp.classId', '=', classId)
    .where('cp.programId', '=', programId)
    .where('cu.userId', '=', v.userId)
    .where('c.contextId', '=', v.contextId)
    .where('cp.programId', 'in', visibleProgramIds(db, v))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether the viewer, a STUDENT of the class, has completed the end of this program there: one
 * of their lessons of that class program is the end of the program and COMPLETED (docs/product.md §4: the
 * player offers the evaluation exactly then). A teacher of the class has no such lesson role.
 */
export async function completedProgram(
  db: Db,
  v: Viewer,
  classId: string,
  programId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('lessons as l')
    .innerJoin('classPrograms as cp', 'cp.id', 'l.classProgramId')
    .innerJoin('classUsers as cu', (j) =>
      j.onRef('cu.classId', '=', 'cp.classId').onRef('cu.userId', '=', 'l.userId'),
    )
    .select('l.id')
    .where('l.userId', '=', v.userId)
    .where('l.contextId', '=', v.contextId)
    .where('cp.classId', '=', classId)
    .where('cp.programId', '=', programId)
    .where('cu.role', '=', 'STUDENT')
    .where('l.isEndOfProgram', '=', 1)
    .where('l.progress', '=', 'COMPLETED')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertReview(trx: Tx, row: ReviewRow): Promise<void> {
  await trx.insertInto('reviews').values(row).execute();
}
