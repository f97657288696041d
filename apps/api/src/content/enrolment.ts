import type { Db } from '../db/db';
import { stableId } from '../lib/ids';

export interface EnsureLessonsScope {
  classId?: string;
  userId?: string;
}

/**
 * Makes sure every STUDENT of a class has one lesson per class program and program course
 * (docs/product.md §3 Lesson). The first course of each program starts AVAILABLE, the others LOCKED; the
 * API unlocks them as the learner progresses. Existing lessons are never touched, so this is
 * safe to call after any enrolment change, as often as needed (the id is deterministic and a
 * unique index backs it).
 */
export async function ensureLessons(
  db: Db,
  scope: EnsureLessonsScope,
  now: Date = new Date(),
): Promise<{ created: number; unchanged: number }> {
  let q = db
    .selectFrom('classUsers')
    .innerJoin('classes', 'classes.id', 'classUsers.classId')
    .select(['classUsers.userId', 'classUsers.classId', 'classes.contextId', 'classes.startAt'])
    .where('classUsers.role', '=', 'STUDENT');
  if (scope.classId) q = q.where('classUsers.classId', '=', scope.classId);
  if (scope.userId) q = q.where('classUsers.userId', '=', scope.userId);
  const enrolments = await q.execute();
  if (enrolments.length === 0) return { created: 0, unchanged: 0 };

  const classIds = [...new Set(enrolments.map((e) => e.classId))];
  const classPrograms = await db
    .selectFrom('classPrograms')
    .select(['id', 'classId', 'programId', 'startAt'])
    .where('classId', 'in', classIds)
    .orderBy('order')
    .execute();
  const programIds = [...new Set(classPrograms.map((cp) => cp.programId))];
  const programCourses = programIds.length
    ? await db
        .selectFrom('programCourses as pc')
        .innerJoin('courses as c', 'c.id', 'pc.courseId')
        .select(['pc.id', 'pc.programId', 'pc.courseId', 'c.settings as courseSettings'])
        .where('pc.programId', 'in', programIds)
        .orderBy('pc.order')
        .execute()
    : [];
  const courseIds = [...new Set(programCourses.map((pc) => pc.courseId))];
  // Sections are the containers right under the root node, in order.
  const sections = courseIds.length
    ? await db
        .selectFrom('courseNodes as n')
        .innerJoin('courseNodes as root', 'root.id', 'n.parentId')
        .select(['n.id', 'n.courseId'])
        .where('root.type', '=', 'root')
        .where('n.type', '=', 'container')
        .where('n.courseId', 'in', courseIds)
        .orderBy('n.order')
        .execute()
    : [];

  // A lesson names its class step (docs/product.md §3 Lesson classStepProgramId), when the class has steps.
  const classProgramIds = classPrograms.map((cp) => cp.id);
  const steps = classProgramIds.length
    ? await db
        .selectFrom('classSteps')
        .select(['id', 'classProgramId', 'resourceId'])
        .where('classProgramId', 'in', classProgramIds)
        .execute()
    : [];
  const stepOf = new Map(steps.map((s) => [`${s.classProgramId}\u0000${s.resourceId}`, s.id]));

  const sectionsOf = new Map<string, string[]>();
  for (const s of sections) sectionsOf.set(s.courseId, [...(sectionsOf.get(s.courseId) ?? []), s.id]);

  const wanted: {
    id: string;
    contextId: string;
    userId: string;
    classId: string;
    classProgramId: string;
    courseId: string;
    programCourseId: string;
    state: string;
    enabledSectionIds: string;
    startAt: string | null;
    timeLimit: number | null;
    classStepProgramId: string | null;
  }[] = [];
  for (const e of enrolments) {
    for (const cp of classPrograms.filter((c) => c.classId === e.classId)) {
      programCourses
        .filter((pc) => pc.programId === cp.programId)
        .forEach((pc, index) => {
          wanted.push({
            id: stableId(e.userId, cp.id, pc.id),
            contextId: e.contextId,
            userId: e.userId,
            classId: e.classId,
            classProgramId: cp.id,
            courseId: pc.courseId,
            programCourseId: pc.id,
            state: index === 0 ? 'AVAILABLE' : 'LOCKED',
            enabledSectionIds: JSON.stringify(sectionsOf.get(pc.courseId) ?? []),
            startAt: cp.startAt ?? e.startAt,
            timeLimit: lessonTimeLimit(pc.courseSettings),
            classStepProgramId: stepOf.get(`${cp.id}\u0000${pc.id}`) ?? null,
          });
        });
    }
  }
  if (wanted.length === 0) return { created: 0, unchanged: 0 };

  const existing = new Set<string>();
  // Chunked: PostgreSQL and SQLite both cap bound parameters per statement.
  for (let i = 0; i < wanted.length; i += 500) {
    const ids = wanted.slice(i, i + 500).map((w) => w.id);
    for (const r of await db.selectFrom('lessons').select('id').where('id', 'in', ids).execute())
      existing.add(r.id);
  }
  const iso = now.toISOString();
  const missing = wanted.filter((w) => !existing.has(w.id));
  for (let i = 0; i < missing.length; i += 200) {
    await db
      .insertInto('lessons')
      .values(
        missing.slice(i, i + 200).map((w) => ({
          ...w,
          currentNodeId: null,
          progress: null,
          certificationRef: null,
          scoring: JSON.stringify({ global: { actual: 0, max: 0 } }),
          startedAt: null,
          endedAt: null,
          createdAt: iso,
          updatedAt: iso,
        })),
      )
      // Another process may enrol the same learner at the same time: the unique index decides.
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return { created: missing.length, unchanged: wanted.length - missing.length };
}

/** The block nodes (pages) of a course in reading order, section by section. */
export async function coursePages(
  db: Db,
  courseId: string,
): Promise<{ nodeId: string; sectionId: string }[]> {
  const nodes = await db
    .selectFrom('courseNodes')
    .select(['id', 'parentId', 'type', 'order'])
    .where('courseId', '=', courseId)
    .execute();
  const children = new Map<string | null, typeof nodes>();
  for (const n of nodes) children.set(n.parentId, [...(children.get(n.parentId) ?? []), n]);
  for (const list of children.values()) list.sort((a, b) => a.order - b.order);
  const out: { nodeId: string; sectionId: string }[] = [];
  const walk = (id: string, sectionId: string): void => {
    for (const c of children.get(id) ?? []) {
      if (c.type === 'block') out.push({ nodeId: c.id, sectionId });
      else walk(c.id, sectionId);
    }
  };
  const root = nodes.find((n) => n.type === 'root');
  for (const section of root ? (children.get(root.id) ?? []) : []) walk(section.id, section.id);
  return out;
}

/**
 * A course's lesson-level time limit (seconds, `courses.settings.timeLimit`, authored as the
 * course file's `timeLimit`): each new lesson of the course gets it; the player counts it from
 * the lesson's first opening and answers LESSON_SKIPPED past it (docs/product.md §8).
 */
function lessonTimeLimit(settingsText: string): number | null {
  try {
    const v = (JSON.parse(settingsText) as { timeLimit?: unknown } | null)?.timeLimit;
    return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}
