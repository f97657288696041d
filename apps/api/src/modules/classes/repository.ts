import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { ClassesTable, ClassProgramsTable } from '../../db/schema';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { Viewer } from '../scope';
import { countRows, visibleClassIds, withSort } from '../scope';

export type ClassRow = Selectable<ClassesTable>;
export type ClassProgramRow = Selectable<ClassProgramsTable>;

function base(db: Db, v: Viewer) {
  return db
    .selectFrom('classes as c')
    .where('c.contextId', '=', v.contextId)
    .where('c.id', 'in', visibleClassIds(db, v));
}

export async function listClasses(
  db: Db,
  v: Viewer,
  q: JsonApiQuery,
): Promise<{ rows: ClassRow[]; total: number }> {
  let qb = base(db, v);
  if (q.filters.id) qb = qb.where('c.id', 'in', q.filters.id);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.selectAll('c'),
    q.sort,
    { startAt: 'c.startAt', name: 'c.name' },
    [{ field: 'startAt', desc: false }],
    'c.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

export async function findClass(db: Db, v: Viewer, id: string): Promise<ClassRow | undefined> {
  return base(db, v).selectAll('c').where('c.id', '=', id).executeTakeFirst();
}

// Include loaders: served from the class-tree cache (structure.ts), visibility applied per request.
export {
  cachedClassesByIds as classesByIds,
  cachedClassProgramsByClassIds as classProgramsByClassIds,
  cachedTeachersByClassIds as teachersByClassIds,
} from './structure';
export type { TeacherRow } from './structure';
