/**
 * The content format (docs/content-format.md): zod schemas for every YAML file of a content
 * folder and the helpers the importer needs (relative dates, pick-words markers). The schemas
 * live in schemas/, one file per kind of file; this module is their one import site. The stored
 * solution format and free-answer normalisation live with the graders in packages/domain and
 * are re-exported here. Cross-file checks live in validate/.
 */
import { FEEDBACK_WHEN } from '@parcours/domain/exercises/solution';

// Free-answer comparison and the stored solution format belong to the graders (packages/domain);
// re-exported so the importer and its tests keep one import site.
export { normaliseFreeAnswer, parseNumberAnswer } from '@parcours/domain/exercises/free-answer/grader';
export type { BlockSolution, FeedbackWhen, RowValidator } from '@parcours/domain/exercises/solution';
export type { RowFeedbacks } from '@parcours/domain/exercises/exercise-grader';
export { FEEDBACK_WHEN };

export { contentDate, filePath, RELATIVE_DATE, resolveDate, slug } from './schemas/common';
export { contextSettingsSchema, tenantSchema } from './schemas/tenant';
export type { TenantFile } from './schemas/tenant';
export { usersSchema } from './schemas/users';
export type { UsersFile } from './schemas/users';
export { CLICKABLE_IMAGE_WIDTH, parsePickWords, rowSchema, VIDEO_URL } from './schemas/rows';
export type { RowFile } from './schemas/rows';
export { blockSchema, courseSchema, nodeSchema } from './schemas/course';
export type { BlockFile, CourseFile, NodeFile } from './schemas/course';
export { classesSchema, programsSchema } from './schemas/classes';
export type { ClassesFile, ProgramCourseFile, ProgramsFile } from './schemas/classes';
