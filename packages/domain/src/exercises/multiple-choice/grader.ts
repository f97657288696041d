/**
 * multiple-choice: tick every right choice.
 * Answer: distinct choice indexes, at most one per choice.
 * Partial credit: ratio = max(0, (right picks − wrong picks) / expected count); exact = 1.
 */
import { z } from 'zod';
import type { GradeResult, IndexSetDetail, PublicRow, RowFeedbacks } from '../exercise-grader';
import {
  countOf,
  defineGrader,
  gradeIndexSet,
  indexSetSchema,
  indexSetWithoutKey,
  pickedChoiceFeedbacks,
} from '../exercise-grader';

/** Stored in the solution: every correct choice index (0-based, sorted), at least one. */
export const expectedSchema = z.array(z.number().int().min(0)).min(1);
export type Expected = z.infer<typeof expectedSchema>;
export type Answer = number[];
export type Detail = IndexSetDetail;

export function answerSchema(row: PublicRow): z.ZodType<Answer> {
  return indexSetSchema(countOf(row.choices));
}

export function grade(expected: Expected, answer: Answer, row: PublicRow): GradeResult<Detail> {
  return gradeIndexSet(expected, answer, countOf(row.choices));
}

export function answerFeedbacks(result: GradeResult<Detail>, answer: Answer, feedbacks: RowFeedbacks) {
  return pickedChoiceFeedbacks(result.detail.items, answer, feedbacks);
}

export const grader = defineGrader({
  expectedSchema,
  answerSchema,
  emptyAnswer: (): Answer => [],
  grade,
  answerFeedbacks,
  withoutKey: indexSetWithoutKey,
});
