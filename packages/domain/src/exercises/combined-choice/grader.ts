/**
 * combined-choice: pick the one right choice.
 * Answer: one choice index, or null when nothing is picked.
 * No partial credit: 1 for the right index, else 0.
 */
import { z } from 'zod';
import type { GradeResult, IndexSetDetail, ItemStatus, PublicRow, RowFeedbacks } from '../exercise-grader';
import {
  countOf,
  defineGrader,
  indexSchema,
  indexSetWithoutKey,
  pickedChoiceFeedbacks,
} from '../exercise-grader';

/** Stored in the solution: the index (0-based) of the one correct choice. */
export const expectedSchema = z.number().int().min(0);
export type Expected = z.infer<typeof expectedSchema>;
export type Answer = number | null;
export type Detail = IndexSetDetail;

export function answerSchema(row: PublicRow): z.ZodType<Answer> {
  return indexSchema(countOf(row.choices)).nullable();
}

export function grade(expected: Expected, answer: Answer, row: PublicRow): GradeResult<Detail> {
  const items = Array.from({ length: countOf(row.choices) }, (_, i): ItemStatus =>
    i === answer ? (i === expected ? 'correct' : 'wrong') : i === expected ? 'missing' : 'neutral',
  );
  const correct = answer === expected;
  return { ratio: correct ? 1 : 0, correct, detail: { items } };
}

export function answerFeedbacks(result: GradeResult<Detail>, answer: Answer, feedbacks: RowFeedbacks) {
  return pickedChoiceFeedbacks(result.detail.items, answer === null ? [] : [answer], feedbacks);
}

export const grader = defineGrader({
  expectedSchema,
  answerSchema,
  emptyAnswer: (): Answer => null,
  grade,
  answerFeedbacks,
  withoutKey: indexSetWithoutKey,
});
