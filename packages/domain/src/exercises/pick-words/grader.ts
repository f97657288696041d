/**
 * pick-words: toggle the words of a text that answer the question.
 * Answer (docs/product.md §3, "a list of picked words or table positions"), either
 * - positions: distinct indexes into the row's `words` (exact: each occurrence counts), or
 * - words: distinct strings, each one of the row's words (compared normalised). A word stands
 *   for all its occurrences, so the expected set is the distinct expected words.
 * Partial credit: ratio = max(0, (right − wrong) / expected count), as multiple-choice.
 */
import { z } from 'zod';
import type { GradeResult, IndexSetDetail, ItemStatus, PublicRow } from '../exercise-grader';
import {
  defineGrader,
  distinct,
  gradeIndexSet,
  indexSetSchema,
  indexSetWithoutKey,
} from '../exercise-grader';
import { normaliseFreeAnswer } from '../free-answer/grader';

/** Stored in the solution: positions in the content's `words` list, and the words there. */
export const expectedSchema = z.object({
  positions: z.array(z.number().int().min(0)),
  words: z.array(z.string()),
});
export type Expected = z.infer<typeof expectedSchema>;
export type Answer = number[] | string[];
/** Status of every word of the text, by position. */
export type Detail = IndexSetDetail;

const wordsOf = (row: PublicRow): readonly string[] => row.words ?? [];

export function answerSchema(row: PublicRow): z.ZodType<Answer> {
  const words = wordsOf(row);
  const known = new Set(words.map(normaliseFreeAnswer));
  // Room for the same word sent decomposed (NFD accents take two code units), no more.
  const longest = 2 * words.reduce((n, w) => Math.max(n, w.length), 0);
  const asWords = z
    .array(z.string().max(longest, 'not a word of the text'))
    .max(known.size, `at most ${known.size} words`)
    .refine((l) => l.every((w) => known.has(normaliseFreeAnswer(w))), 'not a word of the text')
    .refine((l) => distinct(l, normaliseFreeAnswer), 'each word at most once');
  return z.union([indexSetSchema(words.length), asWords]);
}

export function grade(expected: Expected, answer: Answer, row: PublicRow): GradeResult<Detail> {
  const words = wordsOf(row);
  if (answer.every((a): a is number => typeof a === 'number'))
    return gradeIndexSet(expected.positions, answer, words.length);

  const want = new Set(expected.words.map(normaliseFreeAnswer));
  const got = new Set(answer.map(normaliseFreeAnswer));
  let right = 0;
  let wrong = 0;
  for (const w of got)
    if (want.has(w)) right++;
    else wrong++;
  const expectedAt = new Set(expected.positions);
  const items = words.map((w, i): ItemStatus => {
    const k = normaliseFreeAnswer(w);
    if (got.has(k)) return want.has(k) ? (expectedAt.has(i) ? 'correct' : 'neutral') : 'wrong';
    return expectedAt.has(i) ? 'missing' : 'neutral';
  });
  const ratio = want.size === 0 ? (wrong === 0 ? 1 : 0) : Math.max(0, (right - wrong) / want.size);
  return { ratio, correct: wrong === 0 && right === want.size, detail: { items } };
}

/** Words carry no feedback of their own; the row's correct/incorrect messages cover them. */
export function answerFeedbacks() {
  return [];
}

export const grader = defineGrader({
  expectedSchema,
  answerSchema,
  emptyAnswer: (): Answer => [],
  grade,
  answerFeedbacks,
  withoutKey: indexSetWithoutKey,
});
