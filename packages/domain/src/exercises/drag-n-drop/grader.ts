/**
 * drag-n-drop: place choices into targets; unlisted choices are distractors.
 * Answer: one list per target (same order, same count as the row's targets) of choice indexes;
 * a choice sits in at most one target.
 * Partial credit: ratio = max(0, (choices in their expected target − distractors placed) /
 * choices expected somewhere). A choice in the wrong target simply earns nothing; placing a
 * distractor takes a share back, so dropping every choice everywhere does not pay.
 * Correct only when every expected choice is in its target and no distractor is placed.
 */
import { z } from 'zod';
import type { AnswerFeedback, GradeResult, ItemStatus, PublicRow, RowFeedbacks } from '../exercise-grader';
import { countOf, defineGrader, distinct, indexSchema } from '../exercise-grader';

/** Stored in the solution: one list per target (target order) of choice indexes, each sorted. */
export const expectedSchema = z.array(z.array(z.number().int().min(0)));
export type Expected = z.infer<typeof expectedSchema>;
export type Answer = number[][];
export interface DragItem {
  status: ItemStatus;
  /** Target the learner put the choice in, or null. */
  placed: number | null;
  /** Target the choice belongs to, or null for a distractor; absent while the key is withheld. */
  expected?: number | null;
}
/** One entry per choice, by choice index. */
export interface Detail {
  items: DragItem[];
}

export function answerSchema(row: PublicRow): z.ZodType<Answer> {
  const choices = countOf(row.choices);
  const targets = countOf(row.targets);
  return z
    .array(z.array(indexSchema(choices)).max(choices, `at most ${choices} items per target`))
    .length(targets, `one list per target (${targets})`)
    .refine((lists) => distinct(lists.flat()), 'a choice can be placed only once');
}

export function grade(expected: Expected, answer: Answer, row: PublicRow): GradeResult<Detail> {
  const home = new Map<number, number>();
  expected.forEach((list, t) => list.forEach((c) => home.set(c, t)));
  const placedAt = new Map<number, number>();
  answer.forEach((list, t) => list.forEach((c) => placedAt.set(c, t)));

  let right = 0;
  let distractors = 0;
  for (const [c, t] of placedAt) {
    if (home.get(c) === t) right++;
    else if (!home.has(c)) distractors++;
  }
  const items = Array.from({ length: countOf(row.choices) }, (_, c): DragItem => {
    const placed = placedAt.get(c) ?? null;
    const want = home.get(c) ?? null;
    const status: ItemStatus =
      placed === null ? (want === null ? 'neutral' : 'missing') : placed === want ? 'correct' : 'wrong';
    return { status, placed, expected: want };
  });
  const ratio =
    home.size === 0 ? (distractors === 0 ? 1 : 0) : Math.max(0, (right - distractors) / home.size);
  const correct = right === home.size && distractors === 0;
  return { ratio, correct, detail: { items } };
}

/** A choice's feedback shows when it is misplaced (wrong target, or a distractor placed). */
export function answerFeedbacks(
  result: GradeResult<Detail>,
  _answer: Answer,
  feedbacks: RowFeedbacks,
): AnswerFeedback[] {
  const out: AnswerFeedback[] = [];
  result.detail.items.forEach((item, c) => {
    const message = feedbacks.choices?.[String(c)];
    if (message && item.status === 'wrong') out.push({ preset: 'warning', message });
  });
  return out;
}

/** What the learner placed, right or wrong; where a choice belongs is not told. */
export function withoutKey(detail: Detail): Detail {
  return {
    items: detail.items.map((i) => ({
      status: i.status === 'missing' ? 'neutral' : i.status,
      placed: i.placed,
    })),
  };
}

export const grader = defineGrader({
  expectedSchema,
  answerSchema,
  emptyAnswer: (row): Answer => Array.from({ length: countOf(row.targets) }, () => []),
  grade,
  answerFeedbacks,
  withoutKey,
});
