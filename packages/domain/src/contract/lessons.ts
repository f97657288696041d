import { z } from 'zod';
import { LESSON_STATES, PAGE_PROGRESS } from './enums';

/** A learner's lessons and their pages' summaries as the API serves them (see tenant.ts). */

export const scoringSchema = z.object({
  global: z.object({ actual: z.number(), max: z.number() }),
});
export type Scoring = z.infer<typeof scoringSchema>;

/** One entry of a lesson's tree: a section (container node) and the progress of its pages. */
export const lessonTreeNodeSchema = z.object({
  nodeId: z.string(),
  title: z.string().nullable(),
  order: z.number(),
  pages: z.array(z.object({ nodeId: z.string(), progress: z.enum(PAGE_PROGRESS).nullable() })),
});
export type LessonTreeNode = z.infer<typeof lessonTreeNodeSchema>;

export const lessonActionsSchema = z.object({
  interactive: z.array(
    z.object({
      label: z.string(),
      choices: z.array(z.object({ response: z.string(), action: z.object({ target: z.string() }) })),
    }),
  ),
  unlockedLessons: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type LessonActions = z.infer<typeof lessonActionsSchema>;

export const lessonAttributesSchema = z.object({
  userId: z.string(),
  classId: z.string(),
  classProgramId: z.string().nullable(),
  classStepProgramId: z.string().nullable(),
  courseId: z.string(),
  programCourseId: z.string().nullable(),
  contextId: z.string(),
  currentNodeId: z.string().nullable(),
  enabledSectionIds: z.array(z.string()),
  timeLimit: z.number().nullable(),
  timeSpent: z.number(),
  timeAlive: z.number(),
  state: z.enum(LESSON_STATES),
  progress: z.enum(PAGE_PROGRESS).nullable(),
  certificationRef: z.string().nullable(),
  isEndOfProgram: z.boolean(),
  /** Sections in order with their pages' progress (docs/product.md §4 progression formula input). */
  tree: z.array(lessonTreeNodeSchema),
  /** Server-computed progression percent 0..100 from `tree` (same rule as domain/progress). */
  percentProgression: z.number(),
  /**
   * docs/product.md §3 `sortedTree`: the lesson's pages in reading order (sections by order, then pages by
   * order), each with its section, position and progress: what the player walks through.
   */
  sortedTree: z
    .array(
      z.object({
        nodeId: z.string(),
        sectionId: z.string(),
        index: z.number(),
        progress: z.enum(PAGE_PROGRESS).nullable(),
      }),
    )
    .optional(),
  actions: lessonActionsSchema,
  scoring: scoringSchema,
  startAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type LessonAttributes = z.infer<typeof lessonAttributesSchema>;

/** `pages` (include=pages on lessons, GET /api/pages): a page's summary, without its content. */
export const pageSummaryAttributesSchema = z.object({
  lessonId: z.string(),
  nodeId: z.string(),
  sectionId: z.string().nullable(),
  attempt: z.number(),
  state: z.enum(['ACTIVE', 'ARCHIVED']),
  progress: z.enum(PAGE_PROGRESS).nullable(),
  timeSpent: z.number(),
  timeAlive: z.number(),
  timeLimit: z.number().nullable(),
  score: z.object({ actual: z.number(), max: z.number() }),
  answeredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type PageSummaryAttributes = z.infer<typeof pageSummaryAttributesSchema>;
