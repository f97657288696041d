import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { ProgramCoursesTable, ProgramsTable } from '../../db/schema';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { Viewer } from '../scope';
import { countRows, visibleCourseIds, visibleProgramIds, withSort } from '../scope';

export type ProgramRow = Selectable<ProgramsTable>;
export type ProgramCourseRow = Selectable<ProgramCoursesTable>;

function base(db: Db, v: Viewer) {
  return db
    .selectFrom('programs as p')
    .where('p.contextId', '=', v.contextId)
    .where('p.id', 'in', visibleProgramIds(db, v));
}

export async function listPrograms(
  db: Db,
  v: Viewer,
  q: JsonApiQuery,
): Promise<{ rows: ProgramRow[]; total: number }> {
  let qb = base(db, v);
  if (q.filters.id) qb = qb.where('p.id', 'in', q.filters.id);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.selectAll('p'),
    q.sort,
    { name: 'p.name' },
    [{ field: 'name', desc: false }],
    'p.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

export async function findProgram(db: Db, v: Viewer, id: string): Promise<ProgramRow | undefined> {
  return base(db, v).selectAll('p').where('p.id', '=', id).executeTakeFirst();
}

// Include loaders: served from the class-tree cache (classes/structure.ts), visibility applied per request.
export {
  cachedProgramsByIds as programsByIds,
  cachedProgramCoursesByProgramIds as programCoursesByProgramIds,
} from '../classes/structure';

/** Program courses of visible programs whose course the viewer may see (no drafts for learners). */
function programCourseBase(db: Db, v: Viewer) {
  return db
    .selectFrom('programCourses as pc')
    .where('pc.programId', 'in', visibleProgramIds(db, v))
    .where('pc.courseId', 'in', visibleCourseIds(db, v));
}

export async function listProgramCourses(
  db: Db,
  v: Viewer,
  q: JsonApiQuery,
): Promise<{ rows: ProgramCourseRow[]; total: number }> {
  let qb = programCourseBase(db, v);
  if (q.filters.id) qb = qb.where('pc.id', 'in', q.filters.id);
  if (q.filters.programId) qb = qb.where('pc.programId', 'in', q.filters.programId);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.selectAll('pc'),
    q.sort,
    { order: 'pc.order' },
    [{ field: 'order', desc: false }],
    'pc.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}
