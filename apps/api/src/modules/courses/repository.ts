import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type {
  CourseCategoriesTable,
  CourseCompetenciesTable,
  CoursesTable,
  CourseTypesTable,
} from '../../db/schema';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { Viewer } from '../scope';
import { countRows, visibleCourseIds, withSort } from '../scope';

export type CourseRow = Selectable<CoursesTable>;
export type CourseTypeRow = Selectable<CourseTypesTable>;
export type CourseCategoryRow = Selectable<CourseCategoriesTable>;
export type CourseCompetencyRow = Selectable<CourseCompetenciesTable>;

function base(db: Db, v: Viewer) {
  return db
    .selectFrom('courses as co')
    .where('co.contextId', '=', v.contextId)
    .where('co.id', 'in', visibleCourseIds(db, v));
}

export async function findCourse(db: Db, v: Viewer, id: string): Promise<CourseRow | undefined> {
  return base(db, v).selectAll('co').where('co.id', '=', id).executeTakeFirst();
}

// Include loader: served from the class-tree cache (classes/structure.ts), visibility applied per request.
export { cachedCoursesByIds as coursesByIds } from '../classes/structure';

// Types and categories are tenant reference data: visible to any signed-in user of the tenant.
export async function courseTypesByIds(db: Db, v: Viewer, ids: string[]): Promise<CourseTypeRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('courseTypes')
    .selectAll()
    .where('contextId', '=', v.contextId)
    .where('id', 'in', ids)
    .execute();
}

export async function courseCategoriesByIds(db: Db, v: Viewer, ids: string[]): Promise<CourseCategoryRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('courseCategories')
    .selectAll()
    .where('contextId', '=', v.contextId)
    .where('id', 'in', ids)
    .execute();
}

export async function listCompetencies(
  db: Db,
  v: Viewer,
  q: JsonApiQuery,
): Promise<{ rows: CourseCompetencyRow[]; total: number }> {
  let qb = db.selectFrom('courseCompetencies as cc').where('cc.contextId', '=', v.contextId);
  if (q.filters.id) qb = qb.where('cc.id', 'in', q.filters.id);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.selectAll('cc'),
    q.sort,
    { order: 'cc.order' },
    [{ field: 'order', desc: false }],
    'cc.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}
