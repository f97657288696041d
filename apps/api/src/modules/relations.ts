import type { Relation, Relations, Resource } from '../plugins/jsonapi';
import { classesByIds, classProgramsByClassIds, teachersByClassIds } from './classes/repository';
import { toClassProgramResource, toClassResource, toTeacherResource } from './classes/serializer';
import { courseCategoriesByIds, coursesByIds, courseTypesByIds } from './courses/repository';
import { toCourseCategoryResource, toCourseResource, toCourseTypeResource } from './courses/serializer';
import { programCoursesByProgramIds, programsByIds } from './programs/repository';
import { toProgramCourseResource, toProgramResource } from './programs/serializer';
import { activePagesOfLessons } from './pages/list';
import type { Scope } from './scope';

/**
 * Every relationship that `include=` may follow, with a batch loader per relationship: one
 * query per include level whatever the number of parents. Loaders apply the same visibility
 * as the collections (tenant, membership, no drafts for learners), so an include never shows
 * what a direct read would refuse; a hidden to-one target reads as `data: null`.
 */

/** To-one through a foreign-key attribute of the parent. */
function toOne(fk: string, fetch: (s: Scope, ids: string[]) => Promise<Resource[]>): Relation<Scope> {
  return {
    many: false,
    async load(scope, parents) {
      const fkOf = (p: Resource) => {
        const v = p.attributes[fk];
        return typeof v === 'string' ? v : null;
      };
      const ids = [...new Set(parents.map(fkOf).filter((id): id is string => id !== null))];
      const byId = new Map((await fetch(scope, ids)).map((r) => [r.id, r]));
      const out = new Map<string, Resource[]>();
      for (const p of parents) {
        const target = byId.get(fkOf(p) ?? '');
        out.set(p.id, target ? [target] : []);
      }
      return out;
    },
  };
}

/** To-many: the loader returns each target with the parent id it belongs to, in order. */
function toMany(
  fetch: (s: Scope, parentIds: string[]) => Promise<{ parentId: string; resource: Resource }[]>,
): Relation<Scope> {
  return {
    many: true,
    async load(scope, parents) {
      const out = new Map<string, Resource[]>(parents.map((p) => [p.id, []]));
      for (const { parentId, resource } of await fetch(
        scope,
        parents.map((p) => p.id),
      )) {
        out.get(parentId)?.push(resource);
      }
      return out;
    },
  };
}

const classRel = toOne('classId', async ({ db, viewer }, ids) =>
  (await classesByIds(db, viewer, ids)).map(toClassResource),
);
const courseRel = toOne('courseId', async ({ db, viewer }, ids) =>
  (await coursesByIds(db, viewer, ids)).map(toCourseResource),
);

export const relations: Relations<Scope> = {
  'class-users': { class: classRel },
  classes: {
    classPrograms: toMany(async ({ db, viewer }, ids) =>
      (await classProgramsByClassIds(db, viewer, ids)).map((row) => ({
        parentId: row.classId,
        resource: toClassProgramResource(row),
      })),
    ),
    teachers: toMany(async ({ db, viewer }, ids) =>
      (await teachersByClassIds(db, viewer, ids)).map((row) => ({
        parentId: row.classId,
        resource: toTeacherResource(row),
      })),
    ),
  },
  'class-programs': {
    program: toOne('programId', async ({ db, viewer }, ids) =>
      (await programsByIds(db, viewer, ids)).map(toProgramResource),
    ),
  },
  programs: {
    programCourses: toMany(async ({ db, viewer }, ids) =>
      (await programCoursesByProgramIds(db, viewer, ids)).map((row) => ({
        parentId: row.programId,
        resource: toProgramCourseResource(row),
      })),
    ),
  },
  'program-courses': { course: courseRel },
  courses: {
    courseType: toOne('typeId', async ({ db, viewer }, ids) =>
      (await courseTypesByIds(db, viewer, ids)).map(toCourseTypeResource),
    ),
    category: toOne('categoryId', async ({ db, viewer }, ids) =>
      (await courseCategoriesByIds(db, viewer, ids)).map(toCourseCategoryResource),
    ),
  },
  lessons: {
    course: courseRel,
    class: classRel,
    pages: toMany(async ({ db }, ids) => activePagesOfLessons(db, ids)),
  },
};

const CLASS_TREE = [
  'classPrograms',
  'classPrograms.program',
  'classPrograms.program.programCourses',
  'classPrograms.program.programCourses.course',
];

/** Include allow-lists per resource (docs/api.md table). */
export const INCLUDES = {
  classUsers: [...CLASS_TREE.map((p) => `class.${p}`), 'class', 'class.teachers'],
  classes: [...CLASS_TREE, 'teachers'],
  classPrograms: ['program', 'program.programCourses', 'program.programCourses.course'],
  programs: ['programCourses', 'programCourses.course'],
  programCourses: ['course'],
  // `type`: docs/product.md §7's name for `courseType` (INCLUDE_ALIASES).
  courses: ['courseType', 'type', 'category'],
  lessons: ['course', 'class', 'class.classPrograms', 'pages'],
} as const;
