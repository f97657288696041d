/** courses/<slug>.yaml: the course, its terms, blocks and node tree. */
import { z } from 'zod';
import { nodeConditionSchema } from '@parcours/domain/node-conditions';
import type { NodeCondition } from '@parcours/domain/node-conditions';
import { BLOCK_TYPES, PUBLICATION_STATES } from '@parcours/domain/entities';
import { datasetsSchema } from '@parcours/domain/exercises/datasets/draw';
import { FEEDBACK_WHEN } from '@parcours/domain/exercises/solution';
import { CERTIFICATION_WORDINGS, filePath, html, slug } from './common';
import { interactiveImageSchema, packageRef, rowSchema, tableSchema, tincanRef, VIDEO_URL } from './rows';

export const blockSchema = z.strictObject({
  id: slug,
  title: z.string().min(1),
  type: z.enum(BLOCK_TYPES),
  category: slug.optional(),
  competency: slug.optional(),
  attachments: z.array(filePath).default([]),
  terms: z.array(slug).default([]),
  template: z
    .strictObject({
      backToDashBoard: z.boolean().optional(),
      hideNextButton: z.boolean().optional(),
      hideMainTitle: z.boolean().optional(),
    })
    .default({}),
  /** Revealed one by one; a cost (score points) asks confirmation first (docs/product.md §4). */
  hints: z.array(z.strictObject({ message: html, cost: z.number().min(0).default(0) })).default([]),
  statement: z.strictObject({ html, settings: z.record(z.string(), z.unknown()).default({}) }).optional(),
  sections: z
    .array(z.strictObject({ title: z.string().nullable().default(null), rows: z.array(rowSchema) }))
    .default([]),
  /** General feedbacks, shown one at a time before the answer-specific ones. */
  feedbacks: z
    .array(
      z.strictObject({
        when: z.enum(FEEDBACK_WHEN).default('always'),
        preset: z.enum(['success', 'info', 'warning', 'danger']).optional(),
        message: html,
      }),
    )
    .default([]),
  /** The external learning module of a tincan block. */
  tincan: tincanRef.optional(),
  /**
   * Or the package a tincan block plays (issue 31): a SCORM 1.2 / 2004, cmi5 or xAPI zip of the
   * content folder, with the frame's size when the package needs one.
   */
  package: packageRef.optional(),
  /** A table of the block itself, shown under its statement (SPEC §3 CourseBlock content.table). */
  table: tableSchema.optional(),
  /** A picture with spots to explore, under the statement (SPEC §3 content.interactiveImage, decision 0052). */
  interactiveImage: interactiveImageSchema.optional(),
  /**
   * A parametrised exercise (docs/product.md §3, decision 0042): per variable, `{ values: [..] }` or
   * `{ min, max, step? }`; each learner's page draws one value of each, once.
   */
  datasets: datasetsSchema.optional(),
  /** Computed values by name: a formula over the variables and the computed values above it. */
  datasetsComputed: z.record(z.string(), z.string()).default({}),
});
export type BlockFile = z.infer<typeof blockSchema>;

export interface NodeFile {
  id: string;
  type?: 'container' | 'multiblock' | 'block' | undefined;
  title?: string | null | undefined;
  block?: string | undefined;
  settings: { timeLimit?: number | undefined };
  tools: { calculator?: boolean | undefined };
  conditions: NodeCondition[];
  attachments: string[];
  children: NodeFile[];
}
export const nodeSchema: z.ZodType<NodeFile, unknown> = z.lazy(() =>
  z.strictObject({
    id: slug,
    type: z.enum(['container', 'multiblock', 'block']).optional(),
    title: z.string().nullable().optional(),
    block: slug.optional(),
    settings: z.strictObject({ timeLimit: z.number().int().positive().optional() }).default({}),
    tools: z.strictObject({ calculator: z.boolean().optional() }).default({}),
    /** Shown only when each holds (decision 0051): `{ node, minScore?, belowScore? }` on an earlier block. */
    conditions: z.array(nodeConditionSchema).default([]),
    attachments: z.array(filePath).default([]),
    children: z.array(nodeSchema).default([]),
  }),
);

export const courseSchema = z.strictObject({
  id: slug,
  title: z.string().min(1),
  description: z.string().nullable().default(null),
  reference: z.string().nullable().default(null),
  state: z.enum(PUBLICATION_STATES).default('PUBLISHED'),
  type: slug.nullable().default(null),
  category: slug,
  competencies: z.array(slug).default([]),
  video: z.string().regex(VIDEO_URL).nullable().default(null),
  settings: z.record(z.string(), z.unknown()).default({}),
  /** Lesson-level time limit in seconds (docs/product.md §3 Lesson `timeLimit`): past it, LESSON_SKIPPED. */
  timeLimit: z.number().int().positive().optional(),
  /**
   * A certifying course (its type has `certificate: true`): the share of the lesson's points
   * needed for the document, and its wording (default: the tenant's `settings.certification.type`).
   * Stored as `courses.settings.certification`.
   */
  certification: z
    .strictObject({
      passingScore: z.number().min(0).max(1),
      wording: z.enum(CERTIFICATION_WORDINGS).optional(),
    })
    .optional(),
  terms: z
    .array(
      z.strictObject({
        id: slug,
        title: z.string().min(1),
        words: z.array(z.string().min(1)).min(1),
        definition: html,
      }),
    )
    .default([]),
  blocks: z.array(blockSchema).default([]),
  /** The root node: its children are the sections (containers). */
  tree: z.strictObject({ title: z.string().nullable().default(null), children: z.array(nodeSchema).min(1) }),
});
export type CourseFile = z.infer<typeof courseSchema>;
