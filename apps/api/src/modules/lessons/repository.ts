import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Db } from '../../db/db';
import type { LessonsTable } from '../../db/schema';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { Viewer } from '../scope';
import { countRows, withSort } from '../scope';
import type { AccommodationColumns } from '../lesson-pages/repository';
import { lessonsWithAccommodation } from '../lesson-pages/repository';

/**
 * A lesson with its learner's time accommodation in the lesson's class (decision 0019), so the
 * limit sent is the learner's own; rows read elsewhere (no columns) show the plain limit.
 */
export type LessonRow = Selectable<LessonsTable> & Partial<AccommodationColumns>;

/**
 * The home's list (one's own lessons, no other filter, the default order): compiled once
 * (db/prepared-home.ts pattern, decision 0007), same SQL order as `withSort` gives it.
 */
const ownLessonsPage = prepared((db: Db, contextId: string, userId: string, limit: number, offset: number) =>
  lessonsWithAccommodation(db)
    .where('l.contextId', '=', contextId)
    .where('l.userId', '=', userId)
    .orderBy(sql.ref('l.createdAt'), (ob) => ob.asc().nullsLast())
    .orderBy(sql.ref('l.id'))
    .limit(limit)
    .offset(offset),
);

/** `userIds` were checked by the service (oneself, or anyone for administrators). */
export async function listLessons(
  db: Db,
  v: Viewer,
  userIds: string[],
  q: JsonApiQuery,
): Promise<{ rows: LessonRow[]; total: number }> {
  const f = q.filters;
  // With the accommodation (a left join on class_users_uq: one row per lesson, counts unchanged).
  let qb = lessonsWithAccommodation(db)
    .where('l.contextId', '=', v.contextId)
    .where('l.userId', 'in', userIds);
  const plain = !f.classId && !f.contextId && !f.programCourseId && !f.classProgramId && !f.certificationRef;
  if (plain && q.sort.length === 0 && userIds.length === 1 && userIds[0] === v.userId) {
    const offset = offsetOf(q.page);
    const rows = await ownLessonsPage.all(db, v.contextId, v.userId, q.page.size, offset);
    // A first page that is not full holds every row: no count to run.
    const total = offset === 0 && rows.length < q.page.size ? rows.length : await countRows(qb);
    return { rows, total };
  }
  if (f.classId) qb = qb.where('l.classId', 'in', f.classId);
  // The tenant already fixes the context; another id simply matches nothing.
  if (f.contextId) qb = qb.where('l.contextId', 'in', f.contextId);
  if (f.programCourseId) qb = qb.where('l.programCourseId', 'in', f.programCourseId);
  if (f.classProgramId) qb = qb.where('l.classProgramId', 'in', f.classProgramId);
  if (f.certificationRef) qb = qb.where('l.certificationRef', 'is not', null);
  const total = await countRows(qb);
  const rows = await withSort(
    qb,
    q.sort,
    { startedAt: 'l.startedAt', createdAt: 'l.createdAt' },
    [{ field: 'createdAt', desc: false }],
    'l.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

/** A lesson of the tenant that the viewer owns (administrators: any of the tenant). */
export async function findLesson(db: Db, v: Viewer, id: string): Promise<LessonRow | undefined> {
  let qb = lessonsWithAccommodation(db).where('l.contextId', '=', v.contextId).where('l.id', '=', id);
  if (!v.isAdmin) qb = qb.where('l.userId', '=', v.userId);
  return qb.executeTakeFirst();
}

export interface TreeNodeRow {
  id: string;
  courseId: string;
  parentId: string | null;
  type: string;
  order: number;
  title: string | null;
}

export async function structureOfCourses(db: Db, courseIds: string[]): Promise<TreeNodeRow[]> {
  if (courseIds.length === 0) return [];
  return db
    .selectFrom('courseNodes')
    .select(['id', 'courseId', 'parentId', 'type', 'order', 'title'])
    .where('courseId', 'in', courseIds)
    .where('type', 'in', ['container', 'multiblock', 'block'])
    .orderBy('order')
    .orderBy('id')
    .execute();
}

export interface PageProgressRow {
  lessonId: string;
  nodeId: string;
  attempt: number;
  progress: string | null;
}

export async function activePagesOfLessons(db: Db, lessonIds: string[]): Promise<PageProgressRow[]> {
  if (lessonIds.length === 0) return [];
  return db
    .selectFrom('lessonPages')
    .select(['lessonId', 'nodeId', 'attempt', 'progress'])
    .where('lessonId', 'in', lessonIds)
    .where('state', '!=', 'ARCHIVED')
    .execute();
}
