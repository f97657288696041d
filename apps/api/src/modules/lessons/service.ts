import type { LessonActions } from '@parcours/domain/entities';
import type { Db, DbKind } from '../../db/db';
import { writeTx } from '../lesson-pages/tx';
import type { Resource } from '../../plugins/jsonapi';
import { activePagesOfLessons, structureOfCourses } from './repository';
import type { LessonRow, PageProgressRow } from './repository';
import { buildTree, latestProgressByNode, toLessonResource } from './serializer';
import { jsonStrings } from '../programs/serializer';
import { syncProgression } from '../progression/rules';
import { groupBy } from '../scope';

/**
 * Serialises lessons with their trees in two queries for the whole batch (no N+1); `actionsOf`
 * gives each lesson's end-of-lesson actions (see progression/rules.ts `syncProgression`).
 */
export async function lessonResources(
  db: Db,
  rows: LessonRow[],
  actionsOf?: (row: LessonRow) => LessonActions,
): Promise<Resource[]> {
  const [nodes, pages] = await Promise.all([
    structureOfCourses(db, [...new Set(rows.map((r) => r.courseId))]),
    activePagesOfLessons(
      db,
      rows.map((r) => r.id),
    ),
  ]);
  const nodesByCourse = groupBy(nodes, (n) => n.courseId);
  const pagesByLesson = groupBy(pages, (p: PageProgressRow) => p.lessonId);
  return rows.map((row) =>
    toLessonResource(
      row,
      buildTree(
        nodesByCourse.get(row.courseId) ?? [],
        latestProgressByNode(pagesByLesson.get(row.id) ?? []),
        jsonStrings(row.enabledSectionIds),
      ),
      actionsOf?.(row),
    ),
  );
}

/**
 * Lessons as a read shows them: the progression rules applied first (windows, time limits,
 * missed unlocks — written only when due), then serialised with their end-of-lesson actions.
 */
export async function readLessons(db: Db, kind: DbKind, rows: LessonRow[], now: Date): Promise<Resource[]> {
  return (await readLessonsView(db, kind, rows, now)).resources;
}

/** The same, with the instant until which the rules would show the same thing (`nextChangeAt`). */
export async function readLessonsView(
  db: Db,
  kind: DbKind,
  rows: LessonRow[],
  now: Date,
): Promise<{ resources: Resource[]; validUntil: number }> {
  const view = await syncProgression(db, rows, now, (fn) => writeTx(db, kind, fn));
  return { resources: await lessonResources(db, view.rows, view.actionsOf), validUntil: view.validUntil };
}
