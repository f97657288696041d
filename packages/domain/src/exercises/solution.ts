/**
 * What the importer stores in `course_blocks.solution` (server-only): the graders' input. The
 * per-type `expected` formats come from each type's grader, so this is their one definition;
 * apps/api/src/content/format.ts re-exports the types for the importer.
 */
import { z } from 'zod';
import { expectedSchema as combinedChoice } from './combined-choice/grader';
import { expectedSchema as dragAndDrop } from './drag-n-drop/grader';
import { datasetsSchema } from './datasets/draw';
import { rowFeedbacksSchema } from './exercise-grader';
import { expectedSchema as freeAnswer } from './free-answer/grader';
import { expectedSchema as imageCliquable } from './image-cliquable/grader';
import { expectedSchema as multipleChoice } from './multiple-choice/grader';
import { expectedSchema as pickWords } from './pick-words/grader';

/** When a block's general feedback shows, from the page outcome. */
export const FEEDBACK_WHEN = ['always', 'correct', 'partial', 'incorrect'] as const;
export type FeedbackWhen = (typeof FEEDBACK_WHEN)[number];

/** Where the row sits in the block's content: `content.sections[section].rows[row]`. */
const at = {
  section: z.number().int().min(0),
  row: z.number().int().min(0),
  feedbacks: rowFeedbacksSchema,
  /**
   * Parametrised rows (decision 0042): the expected answer is this formula over the learner's
   * values, and `expected` only carries what does not depend on them (a free answer's
   * tolerance; 0 as the index of a combined choice). `instantiateSolution` puts the learner's
   * expected answer in place; gradePage refuses a validator that still has a formula.
   */
  formula: z.string().optional(),
};

export const rowValidatorSchema = z.discriminatedUnion('type', [
  z.object({ ...at, type: z.literal('multiple-choice'), expected: multipleChoice }),
  z.object({ ...at, type: z.literal('combined-choice'), expected: combinedChoice }),
  z.object({ ...at, type: z.literal('free-answer'), expected: freeAnswer }),
  z.object({ ...at, type: z.literal('drag-n-drop'), expected: dragAndDrop }),
  z.object({ ...at, type: z.literal('pick-words'), expected: pickWords }),
  z.object({ ...at, type: z.literal('image-cliquable'), expected: imageCliquable }),
]);
export type RowValidator = z.infer<typeof rowValidatorSchema>;

export const blockSolutionSchema = z.object({
  /** General feedbacks, shown one at a time before the answer-specific ones (docs/product.md §4). */
  feedbacks: z.array(z.object({ when: z.enum(FEEDBACK_WHEN), preset: z.string(), message: z.string() })),
  validators: z.array(rowValidatorSchema),
  /** A parametrised block (docs/product.md §3 `datasets`, `datasetsComputed`): kept server-side, formulas included. */
  parameters: z
    .object({
      datasets: datasetsSchema,
      /** Computed values by name, in order: each formula reads the variables and the values before it. */
      computed: z.record(z.string(), z.string()),
    })
    .optional(),
});
export type BlockSolution = z.infer<typeof blockSolutionSchema>;
