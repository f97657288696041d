import type { Db } from '@parcours/api/db/db';
import { coursePages } from '@parcours/api/content/enrolment';

/** A page a learner can be on: the block node, its section, and its multiblock if it is a choice. */
export interface TemplatePage {
  nodeId: string;
  sectionId: string;
  choiceOf: string | null;
}

export interface TemplateCourse {
  programCourseId: string;
  courseId: string;
  sectionIds: string[];
  pages: TemplatePage[];
}

/** The programs of one of the tenant's classes: generated classes copy them. */
export interface TemplateClass {
  programs: { programId: string; courses: TemplateCourse[] }[];
}

export interface Template {
  contextId: string;
  /** The demo learner's hash: one realistic scrypt hash, reused by every generated learner. */
  passwordHash: string;
  legal: string;
  classes: TemplateClass[];
}

/**
 * What generated learners are made of, read from the imported demo content of the tenant of
 * `learnerId` (the demo learner): its classes' programs, their courses and pages in reading order.
 * Works on SQLite and PostgreSQL (Kysely).
 */
export async function readTemplate(db: Db, learnerId: string): Promise<Template> {
  const learner = await db
    .selectFrom('users')
    .select(['contextId', 'passwordHash', 'legal'])
    .where('id', '=', learnerId)
    .executeTakeFirst();
  if (!learner?.passwordHash) throw new Error(`template learner ${learnerId} not found`);
  const classPrograms = await db
    .selectFrom('classPrograms as cp')
    .innerJoin('classes as c', 'c.id', 'cp.classId')
    .select(['c.id as classId', 'cp.programId'])
    .where('c.contextId', '=', learner.contextId)
    .orderBy('c.id')
    .orderBy('cp.order')
    .execute();
  const programCourses = await db
    .selectFrom('programCourses as pc')
    .innerJoin('programs as p', 'p.id', 'pc.programId')
    .select(['pc.id', 'pc.programId', 'pc.courseId'])
    .where('p.contextId', '=', learner.contextId)
    .orderBy('pc.order')
    .execute();
  const courses = new Map<string, { sectionIds: string[]; pages: TemplatePage[] }>();
  for (const courseId of new Set(programCourses.map((pc) => pc.courseId)))
    courses.set(courseId, await pagesOf(db, courseId));

  const byClass = new Map<string, string[]>();
  for (const cp of classPrograms) byClass.set(cp.classId, [...(byClass.get(cp.classId) ?? []), cp.programId]);
  const classes: TemplateClass[] = [...byClass.values()].map((programIds) => ({
    programs: programIds.map((programId) => ({
      programId,
      courses: programCourses
        .filter((pc) => pc.programId === programId)
        .map((pc) => ({ programCourseId: pc.id, courseId: pc.courseId, ...courses.get(pc.courseId)! }))
        .filter((c) => c.pages.length > 0),
    })),
  }));
  return {
    contextId: learner.contextId,
    passwordHash: learner.passwordHash,
    legal: learner.legal,
    classes: classes.filter((c) => c.programs.some((p) => p.courses.length > 0)),
  };
}

/**
 * The pages of a course a learner goes through, in reading order (the enrolment's own walk); of a
 * multiblock's children only the first (a learner answers one choice, decision 0009), with the
 * multiblock as its `choiceOf`. Sections: the containers right under the root, as enrolment has it.
 */
async function pagesOf(db: Db, courseId: string): Promise<{ sectionIds: string[]; pages: TemplatePage[] }> {
  const nodes = await db
    .selectFrom('courseNodes')
    .select(['id', 'parentId', 'type', 'order'])
    .where('courseId', '=', courseId)
    .orderBy('order')
    .execute();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const root = nodes.find((n) => n.type === 'root');
  const chosen = new Set<string>();
  const pages: TemplatePage[] = [];
  for (const { nodeId, sectionId } of await coursePages(db, courseId)) {
    const parent = byId.get(byId.get(nodeId)?.parentId ?? '');
    const choiceOf = parent?.type === 'multiblock' ? parent.id : null;
    if (choiceOf && chosen.has(choiceOf)) continue;
    if (choiceOf) chosen.add(choiceOf);
    pages.push({ nodeId, sectionId, choiceOf });
  }
  const sectionIds = nodes.filter((n) => n.type === 'container' && n.parentId === root?.id).map((n) => n.id);
  return { sectionIds, pages };
}
