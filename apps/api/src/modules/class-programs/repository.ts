import type { Db } from '../../db/db';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { ClassProgramRow } from '../classes/repository';
import type { Viewer } from '../scope';
import { countRows, visibleClassIds, visibleProgramIds, withSort } from '../scope';

function base(db: Db, v: Viewer) {
  return db
    .selectFrom('classPrograms as cp')
    .where('cp.classId', 'in', visibleClassIds(db, v))
    .where('cp.programId', 'in', visibleProgramIds(db, v));
}

export async function listClassPrograms(
  db: Db,
  v: Viewer,
  q: JsonApiQuery,
): Promise<{ rows: ClassProgramRow[]; total: number }> {
  let qb = base(db, v);
  if (q.filters.id) qb = qb.where('cp.id', 'in', q.filters.id);
  if (q.filters.classId) qb = qb.where('cp.classId', 'in', q.filters.classId);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.selectAll('cp'),
    q.sort,
    { order: 'cp.order' },
    [{ field: 'order', desc: false }],
    'cp.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

export async function findClassProgram(db: Db, v: Viewer, id: string): Promise<ClassProgramRow | undefined> {
  return base(db, v).selectAll('cp').where('cp.id', '=', id).executeTakeFirst();
}
