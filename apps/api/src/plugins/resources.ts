import {
  classAttributesSchema,
  classProgramAttributesSchema,
  classStepAttributesSchema,
  classUserAttributesSchema,
  courseAttributesSchema,
  courseCategoryAttributesSchema,
  courseCompetencyAttributesSchema,
  courseTermAttributesSchema,
  courseTypeAttributesSchema,
  programAttributesSchema,
  programCourseAttributesSchema,
} from '@parcours/domain/contract/catalogue';
import {
  categoryProgressAttributesSchema,
  certificationItemAttributesSchema,
  classUserDataAttributesSchema,
  competencyLevelAttributesSchema,
  filesAttributesSchema,
  logBookRecordAttributesSchema,
  recordAttributesSchema,
  reviewAttributesSchema,
  statisticsAttributesSchema,
  timeAccommodationAttributesSchema,
} from '@parcours/domain/contract/dashboard';
import { lessonAttributesSchema, pageSummaryAttributesSchema } from '@parcours/domain/contract/lessons';
import {
  courseBlockAttributesSchema,
  courseNodeAttributesSchema,
  lessonPageAttributesSchema,
  offlinePageAttributesSchema,
} from '@parcours/domain/contract/player';
import {
  companyAttributesSchema,
  companyUserAttributesSchema,
  contextAttributesSchema,
  contextMapAttributesSchema,
  libraryAttributesSchema,
  publicUserAttributesSchema,
  roleAttributesSchema,
  roleUserAttributesSchema,
} from '@parcours/domain/contract/tenant';
import { resourceOf, toMany, toOne } from './contract';

/**
 * Every JSON:API resource the API serves, by OpenAPI component name: its type, attributes
 * (packages/domain/src/contract) and the relationships its serializer sets or `include=` follows
 * (modules/relations.ts and the modules' own relation tables). Routes name their documents with
 * these through `collectionOf` / `documentOf` (plugins/contract.ts).
 */

// Tenant and organisation.
export const contextResource = resourceOf('Context', 'contexts', contextAttributesSchema);
export const contextMapResource = resourceOf('ContextMapEntry', 'contexts', contextMapAttributesSchema);
export const companyResource = resourceOf('Company', 'companies', companyAttributesSchema);
export const companyUserResource = resourceOf('CompanyUser', 'company-users', companyUserAttributesSchema, {
  company: toOne('companies'),
  user: toOne('users'),
});
export const roleResource = resourceOf('Role', 'roles', roleAttributesSchema);
export const roleUserResource = resourceOf('RoleUser', 'role-users', roleUserAttributesSchema, {
  role: toOne('roles'),
});
export const libraryResource = resourceOf('Library', 'libraries', libraryAttributesSchema, {
  files: toMany('files'),
});
/** Another person as the viewer sees them: a class's teacher, a note's author or student. */
export const publicUserResource = resourceOf('PublicUser', 'users', publicUserAttributesSchema);

// Classes, programs, courses.
export const classProgramResource = resourceOf(
  'ClassProgram',
  'class-programs',
  classProgramAttributesSchema,
  {
    program: toOne('programs'),
  },
);
export const classResource = resourceOf('Class', 'classes', classAttributesSchema, {
  classPrograms: toMany('class-programs'),
  teachers: toMany('users'),
});
export const classUserResource = resourceOf('ClassUser', 'class-users', classUserAttributesSchema, {
  class: toOne('classes'),
});
export const classStepResource = resourceOf('ClassStep', 'class-steps', classStepAttributesSchema, {
  classProgram: toOne('class-programs'),
  resource: toOne('program-courses'),
});
export const programResource = resourceOf('Program', 'programs', programAttributesSchema, {
  programCourses: toMany('program-courses'),
});
export const programCourseResource = resourceOf(
  'ProgramCourse',
  'program-courses',
  programCourseAttributesSchema,
  { course: toOne('courses') },
);
export const courseResource = resourceOf('Course', 'courses', courseAttributesSchema, {
  courseType: toOne('course-types'),
  category: toOne('course-categories'),
});
export const courseTypeResource = resourceOf('CourseType', 'course-types', courseTypeAttributesSchema);
export const courseCategoryResource = resourceOf(
  'CourseCategory',
  'course-categories',
  courseCategoryAttributesSchema,
);
export const courseCompetencyResource = resourceOf(
  'CourseCompetency',
  'course-competencies',
  courseCompetencyAttributesSchema,
);
export const courseTermResource = resourceOf('CourseTerm', 'course-terms', courseTermAttributesSchema);
export const courseBlockResource = resourceOf('CourseBlock', 'course-blocks', courseBlockAttributesSchema, {
  terms: toMany('course-terms'),
});
export const courseNodeResource = resourceOf('CourseNode', 'course-nodes', courseNodeAttributesSchema, {
  parent: toOne('course-nodes'),
  children: toMany('course-nodes'),
  block: toOne('course-blocks'),
});

// A learner's lessons and the player.
export const pageSummaryResource = resourceOf('PageSummary', 'pages', pageSummaryAttributesSchema, {
  lesson: toOne('lessons'),
});
export const lessonResource = resourceOf('Lesson', 'lessons', lessonAttributesSchema, {
  course: toOne('courses'),
  class: toOne('classes'),
  pages: toMany('pages'),
});
export const lessonPageResource = resourceOf('LessonPage', 'lesson-pages', lessonPageAttributesSchema, {
  lesson: toOne('lessons'),
});
export const offlinePageResource = resourceOf('OfflinePage', 'offline-pages', offlinePageAttributesSchema);

// Dashboard, files and notes, teaching.
export const fileResource = resourceOf('File', 'files', filesAttributesSchema);
/** A file as an upload answers it and a note's `include=attachments` shows it. */
export const uploadedFileResource = resourceOf(
  'UploadedFile',
  'files',
  filesAttributesSchema.pick({
    name: true,
    mimeType: true,
    fileType: true,
    size: true,
    ownerId: true,
    download: true,
    createdAt: true,
  }),
);
export const logBookRecordResource = resourceOf(
  'LogBookRecord',
  'log-book-records',
  logBookRecordAttributesSchema,
  { user: toOne('users'), student: toOne('users'), attachments: toMany('files') },
);
export const reviewResource = resourceOf('Review', 'reviews', reviewAttributesSchema);
export const recordResource = resourceOf('Record', 'records', recordAttributesSchema);
export const statisticsResource = resourceOf('Statistics', 'statistics', statisticsAttributesSchema);
export const competencyLevelResource = resourceOf(
  'CompetencyLevel',
  'competency-levels',
  competencyLevelAttributesSchema,
  { parent: toOne('competency-levels') },
);
export const categoryProgressResource = resourceOf(
  'CategoryProgress',
  'category-progress',
  categoryProgressAttributesSchema,
);
export const certificationItemResource = resourceOf(
  'CertificationItem',
  'certification-items',
  certificationItemAttributesSchema,
  { lesson: toOne('lessons') },
);
export const timeAccommodationResource = resourceOf(
  'TimeAccommodation',
  'time-accommodations',
  timeAccommodationAttributesSchema,
);
export const classUserDataResource = resourceOf(
  'ClassUserData',
  'class-user-data',
  classUserDataAttributesSchema,
);

/** What `include=` may add under the class tree (modules/relations.ts CLASS_TREE). */
export const CLASS_TREE_INCLUDED = [
  classProgramResource,
  programResource,
  programCourseResource,
  courseResource,
  publicUserResource,
] as const;

/** What `include=` may add to lessons (modules/relations.ts INCLUDES.lessons). */
export const LESSON_INCLUDED = [
  courseResource,
  classResource,
  classProgramResource,
  pageSummaryResource,
] as const;
