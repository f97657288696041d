import { LIMITS } from '@parcours/domain/constants';
import type { CompetencyNode, PointSums } from '@parcours/domain/dashboard-levels';
import type { Db } from '../../db/db';

/**
 * Sums of the dashboard's Levels and Jobs tabs (decision 0008), grouped by the database: one row
 * per competency or category however long the learner's history, so memory stays flat. Both
 * walk from the learner's lessons (index lessons_user_idx) to their live, graded pages
 * (lesson_pages_lesson_idx), then by primary keys to nodes, blocks and courses.
 */

const num = (v: unknown) => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/** The tenant's competencies (the tree the tab draws). */
export async function listCompetencies(db: Db, contextId: string): Promise<CompetencyNode[]> {
  const rows = await db
    .selectFrom('courseCompetencies')
    .select(['id', 'parentId', 'title', 'icon', 'order', 'isGeneric'])
    .where('contextId', '=', contextId)
    .orderBy('order')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, order: num(r.order), isGeneric: r.isGeneric === 1 }));
}

/** Points earned / possible per competency of the block, over the learner's graded live pages. */
export async function pointsByCompetency(
  db: Db,
  contextId: string,
  userId: string,
): Promise<Map<string, PointSums>> {
  const rows = await db
    .selectFrom('lessons as l')
    .innerJoin('lessonPages as lp', 'lp.lessonId', 'l.id')
    .innerJoin('courseNodes as n', 'n.id', 'lp.nodeId')
    .innerJoin('courseBlocks as b', 'b.id', 'n.blockId')
    .where('l.userId', '=', userId)
    .where('l.contextId', '=', contextId)
    .where('lp.state', '<>', 'ARCHIVED')
    .where('lp.answeredAt', 'is not', null)
    .where('lp.scoreMax', '>', 0)
    .where('b.competencyId', 'is not', null)
    .select((eb) => [
      'b.competencyId as competencyId',
      eb.fn.sum<number | string>('lp.scoreActual').as('actual'),
      eb.fn.sum<number | string>('lp.scoreMax').as('max'),
    ])
    .groupBy('b.competencyId')
    .execute();
  return new Map(rows.map((r) => [r.competencyId as string, { actual: num(r.actual), max: num(r.max) }]));
}

export interface CategoryRow extends PointSums {
  categoryId: string;
  title: string;
  icon: string | null;
  startedLessons: number;
}

/**
 * The categories of the learner's started lessons (LIMITCATEGORY at most, by title), each with
 * the points of its graded live pages; a started category with nothing graded yet sums to 0/0.
 */
export async function categoryPoints(db: Db, contextId: string, userId: string): Promise<CategoryRow[]> {
  const rows = await db
    .selectFrom('lessons as l')
    .innerJoin('courses as c', 'c.id', 'l.courseId')
    .innerJoin('courseCategories as cat', (join) =>
      join.onRef('cat.id', '=', 'c.categoryId').on('cat.contextId', '=', contextId),
    )
    .leftJoin('lessonPages as lp', (join) =>
      join
        .onRef('lp.lessonId', '=', 'l.id')
        .on('lp.state', '<>', 'ARCHIVED')
        .on('lp.answeredAt', 'is not', null)
        .on('lp.scoreMax', '>', 0),
    )
    .where('l.userId', '=', userId)
    .where('l.contextId', '=', contextId)
    .where('l.startedAt', 'is not', null)
    .select((eb) => [
      'cat.id as categoryId',
      'cat.title as title',
      'cat.icon as icon',
      eb.fn.count<number | string>('l.id').distinct().as('startedLessons'),
      eb.fn.sum<number | string>('lp.scoreActual').as('actual'),
      eb.fn.sum<number | string>('lp.scoreMax').as('max'),
    ])
    .groupBy(['cat.id', 'cat.title', 'cat.icon'])
    .orderBy('cat.title')
    .orderBy('cat.id')
    .limit(LIMITS.CATEGORY)
    .execute();
  return rows.map((r) => ({
    categoryId: r.categoryId,
    title: r.title,
    icon: r.icon,
    startedLessons: num(r.startedLessons),
    actual: num(r.actual),
    max: num(r.max),
  }));
}
