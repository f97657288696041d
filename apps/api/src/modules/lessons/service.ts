import type { LessonActions } from '@parcours/domain/entities';
import type { Db, DbKind } from '../../db/db';
import { writeTx } from '../../db/tx';
import type { Resource } from '../../plugins/jsonapi';
import { activePagesOfLessons, structureOfCourses } from './repository';
import type { LessonRow, PageProgressRow, TreeNodeRow } from './repository';
import { buildTree, latestProgressByNode, toLessonResource } from './serializer';
import { jsonStrings } from '../programs/serializer';
import { cachedProgramContexts, syncProgression } from '../progression/rules';
import type { Viewer } from '../scope';
import { RowMap, loadMissing, perContentVersion } from '../../lib/versioned-cache';
import { groupBy } from '../scope';

const nodeCaches = perContentVersion(() => new RowMap<TreeNodeRow[]>());

/** Each course's sections and pages, under the content stamp the request read (decision 0015). */
async function cachedNodes(db: Db, v: Viewer, courseIds: string[]): Promise<Map<string, TreeNodeRow[]>> {
  return loadMissing(
    await nodeCaches(db, v),
    courseIds,
    async (missing) => groupBy(await structureOfCourses(db, missing), (n) => n.courseId),
    [],
  );
}

/**
 * Serialises lessons with their trees in two queries for the whole batch (no N+1); `actionsOf`
 * gives each lesson's end-of-lesson actions (see progression/rules.ts `syncProgression`).
 */
export async function lessonResources(
  db: Db,
  rows: LessonRow[],
  actionsOf?: (row: LessonRow) => LessonActions,
  viewer?: Viewer,
): Promise<Resource[]> {
  const courseIds = [...new Set(rows.map((r) => r.courseId))];
  const [nodesByCourse, pages] = await Promise.all([
    viewer
      ? cachedNodes(db, viewer, courseIds)
      : structureOfCourses(db, courseIds).then((nodes) => groupBy(nodes, (n) => n.courseId)),
    activePagesOfLessons(
      db,
      rows.map((r) => r.id),
    ),
  ]);
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

/**
 * The same, with the instant until which the rules would show the same thing (`nextChangeAt`).
 * With the viewer, content (program contexts, course nodes) comes from the caches kept under
 * the content stamp it read; the learner's own rows are read every time.
 */
export async function readLessonsView(
  db: Db,
  kind: DbKind,
  rows: LessonRow[],
  now: Date,
  viewer?: Viewer,
): Promise<{ resources: Resource[]; validUntil: number }> {
  const view = await syncProgression(
    db,
    rows,
    now,
    (fn) => writeTx(db, kind, fn),
    viewer ? cachedProgramContexts(db, viewer) : undefined,
  );
  return {
    resources: await lessonResources(db, view.rows, view.actionsOf, viewer),
    validUntil: view.validUntil,
  };
}
