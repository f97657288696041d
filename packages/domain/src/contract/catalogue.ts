import { z } from 'zod';
import { CLASS_ROLES, PUBLICATION_STATES } from './enums';

/** Classes, programs and courses as the API serves them (JSON:API `attributes`; see tenant.ts). */

/** Free settings authored in the content (docs/content-format.md): any JSON object. */
const settingsSchema = z.record(z.string(), z.unknown());

export const classAttributesSchema = z.object({
  name: z.string(),
  startAt: z.string().nullable(),
  expireAt: z.string().nullable(),
  settings: z.looseObject({ mobile: z.looseObject({ allowed: z.boolean().optional() }).optional() }),
  createdAt: z.string(),
});
export type ClassAttributes = z.infer<typeof classAttributesSchema>;

export const classUserAttributesSchema = z.object({
  classId: z.string(),
  userId: z.string(),
  role: z.enum(CLASS_ROLES),
  createdAt: z.string(),
});
export type ClassUserAttributes = z.infer<typeof classUserAttributesSchema>;

export const openingBoundariesSchema = z.object({
  from: z.string().nullable().optional(),
  to: z.string().nullable().optional(),
});
export type OpeningBoundaries = z.infer<typeof openingBoundariesSchema>;

export const classProgramAttributesSchema = z.object({
  classId: z.string(),
  programId: z.string(),
  order: z.number(),
  startAt: z.string().nullable(),
  expireAt: z.string().nullable(),
  openingBoundaries: openingBoundariesSchema,
});
export type ClassProgramAttributes = z.infer<typeof classProgramAttributesSchema>;

export const classStepAttributesSchema = z.object({
  classProgramId: z.string(),
  resourceId: z.string(),
  order: z.number(),
});
export type ClassStepAttributes = z.infer<typeof classStepAttributesSchema>;

export const programAttributesSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  public: z.boolean(),
  settings: settingsSchema,
  tags: z.array(z.string()),
  state: z.enum(PUBLICATION_STATES),
});
export type ProgramAttributes = z.infer<typeof programAttributesSchema>;

export const programCourseAttributesSchema = z.object({
  programId: z.string(),
  courseId: z.string(),
  order: z.number(),
  settings: settingsSchema,
});
export type ProgramCourseAttributes = z.infer<typeof programCourseAttributesSchema>;

export const courseAttributesSchema = z.object({
  title: z.string(),
  description: z.string().nullable(),
  reference: z.string().nullable(),
  state: z.enum(PUBLICATION_STATES),
  categoryId: z.string(),
  typeId: z.string().nullable(),
  competencyIds: z.array(z.string()),
  video: z.string().nullable(),
  settings: z.looseObject({ credit: z.number().optional() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CourseAttributes = z.infer<typeof courseAttributesSchema>;

export const courseTypeAttributesSchema = z.object({
  title: z.string(),
  description: z.string().nullable(),
  settings: settingsSchema,
});
export type CourseTypeAttributes = z.infer<typeof courseTypeAttributesSchema>;

export const courseCategoryAttributesSchema = z.object({
  title: z.string(),
  icon: z.string().nullable(),
  backgroundImageId: z.string().nullable(),
});
export type CourseCategoryAttributes = z.infer<typeof courseCategoryAttributesSchema>;

export const courseCompetencyAttributesSchema = z.object({
  parentId: z.string().nullable(),
  isGeneric: z.boolean(),
  title: z.string(),
  icon: z.string().nullable(),
  order: z.number(),
});
export type CourseCompetencyAttributes = z.infer<typeof courseCompetencyAttributesSchema>;

export const courseTermAttributesSchema = z.object({
  title: z.string(),
  words: z.array(z.string()),
  definition: z.string(),
});
export type CourseTermAttributes = z.infer<typeof courseTermAttributesSchema>;
