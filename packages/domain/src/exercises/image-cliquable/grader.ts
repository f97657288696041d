/**
 * image-cliquable: click every zone that matches; the public row lists the zones as `choices`.
 * Answer: distinct zone indexes.
 * Partial credit: as multiple-choice, ratio = max(0, (right zones − wrong zones) / expected count).
 */
import { z } from 'zod';
import type { GradeResult, IndexSetDetail, PublicRow, RowFeedbacks } from '../exercise-grader';
import {
  countOf,
  defineGrader,
  gradeIndexSet,
  indexSetSchema,
  pickedChoiceFeedbacks,
} from '../exercise-grader';

/** Stored in the solution: the indexes (0-based, sorted) of the zones to click, at least one. */
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

/** A zone's feedback shows when it is clicked. */
export function answerFeedbacks(result: GradeResult<Detail>, answer: Answer, feedbacks: RowFeedbacks) {
  return pickedChoiceFeedbacks(result.detail.items, answer, feedbacks);
}

export const grader = defineGrader({
  expectedSchema,
  answerSchema,
  emptyAnswer: (): Answer => [],
  grade,
  answerFeedbacks,
});
