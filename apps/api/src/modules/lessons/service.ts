import type { Db } from '../../db/db';
import type { Resource } from '../../plugins/jsonapi';
import { activePagesOfLessons, structureOfCourses } from './repository';
import type { LessonRow, PageProgressRow } from './repository';
import { buildTree, latestProgressByNode, toLessonResource } from './serializer';
import { jsonStrings } from '../programs/serializer';
import { groupBy } from '../scope';

/** Serialises lessons with their trees in two queries for the whole batch (no N+1). */
export async function lessonResources(db: Db, rows: LessonRow[]): Promise<Resource[]> {
  const [nodes, pages] = await Promise.all([
    structureOfCourses(db, [...new Set(rows.map((r) => r.courseId))]),
    activePagesOfLessons(db, rows.map((r) => r.id)),
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
    ),
  );
}
