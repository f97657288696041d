import {
  accommodatedLimit,
  accommodationOf,
  mostGenerousAccommodation,
} from '@parcours/domain/time-accommodation';
import type { TimeAccommodation } from '@parcours/domain/time-accommodation';
import type { Db } from '../../db/db';
import type { Resource } from '../../plugins/jsonapi';
import type { Viewer } from '../scope';
import { groupBy } from '../scope';

/**
 * Node mode's time limits for a learner (decision 0019, follow-up). A node id says nothing of the
 * enrolment it is reached through, and node mode grades nothing, so the learner gets the most
 * generous accommodation among their STUDENT enrolments whose classes' (published) programs
 * include the node's course. Administrators and staff get the content's plain limits: an
 * administrator reads no enrolment, a teacher has no STUDENT one.
 */

const limitOf = (r: Resource): number | null => {
  const settings = r.attributes.settings as { timeLimit?: unknown } | undefined;
  return typeof settings?.timeLimit === 'number' ? settings.timeLimit : null;
};
const courseOf = (r: Resource): string => String(r.attributes.courseId);

/** The viewer's accommodation per course, one statement for all; absent: none. */
async function accommodationsByCourse(
  db: Db,
  v: Viewer,
  courseIds: string[],
): Promise<Map<string, TimeAccommodation>> {
  const rows = await db
    .selectFrom('classUsers as cu')
    .innerJoin('classes as c', 'c.id', 'cu.classId')
    .innerJoin('classPrograms as cp', 'cp.classId', 'c.id')
    .innerJoin('programs as p', 'p.id', 'cp.programId')
    .innerJoin('programCourses as pc', 'pc.programId', 'p.id')
    .select(['pc.courseId', 'cu.timeFactor', 'cu.noTimeLimit'])
    .where('cu.userId', '=', v.userId)
    .where('cu.role', '=', 'STUDENT')
    .where('c.contextId', '=', v.contextId)
    .where('p.state', '!=', 'DRAFT')
    .where('pc.courseId', 'in', courseIds)
    // Enrolments without an accommodation change nothing: only the others are read.
    .where((eb) => eb.or([eb('cu.timeFactor', 'is not', null), eb('cu.noTimeLimit', '=', 1)]))
    .execute();
  const byCourse = groupBy(rows, (r) => r.courseId);
  return new Map(
    [...byCourse].map(([id, list]) => [id, mostGenerousAccommodation(list.map(accommodationOf))]),
  );
}

/**
 * A function giving each course-node resource of a document the viewer's own `settings.timeLimit`
 * (other resources unchanged). Reads nothing when no node sent has a limit, or for administrators.
 */
export async function learnerLimits(
  db: Db,
  v: Viewer,
  resources: Resource[],
): Promise<(r: Resource) => Resource> {
  const timed = resources.filter((r) => r.type === 'course-nodes' && limitOf(r) !== null);
  if (v.isAdmin || timed.length === 0) return (r) => r;
  const byCourse = await accommodationsByCourse(db, v, [...new Set(timed.map(courseOf))]);
  if (byCourse.size === 0) return (r) => r;
  return (r) => {
    const acc = r.type === 'course-nodes' ? byCourse.get(courseOf(r)) : undefined;
    const limit = limitOf(r);
    if (!acc || limit === null) return r;
    const settings = r.attributes.settings as Record<string, unknown>;
    return {
      ...r,
      attributes: { ...r.attributes, settings: { ...settings, timeLimit: accommodatedLimit(limit, acc) } },
    };
  };
}
