/**
 * free-answer: a typed text or number.
 * Answer: a string of at most MAX_FREE_ANSWER_LENGTH characters.
 * No partial credit (docs/product.md §5: "a free-answer is correct when its result equals 1"):
 * - text: correct when the answer, normalised, equals one accepted string. Normalisation is
 *   normaliseFreeAnswer (Unicode NFKD, accents removed, lower case, typographic apostrophes
 *   made plain, trimmed, inner spaces collapsed) and, for comparing only, final punctuation
 *   dropped on both sides ("Preuve." = "preuve");
 * - number: correct when parseNumberAnswer reads a number within `tolerance` of `value`
 *   (comma or dot decimals, spaces and a trailing unit ignored).
 */
import { z } from 'zod';
import type { AnswerFeedback, GradeResult, PublicRow, RowFeedbacks } from '../exercise-grader';
import { MAX_FREE_ANSWER_LENGTH, defineGrader } from '../exercise-grader';

/**
 * How free-answer strings compare: Unicode-normalised, accents removed, lower case, trimmed,
 * inner spaces collapsed, typographic apostrophes made plain. Accepted answers are stored
 * normalised; the grader normalises the learner's answer the same way.
 */
export function normaliseFreeAnswer(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[\u2019\u2018`]/g, "'")
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ' ');
}

/** Number answers: spaces removed, comma as decimal point, a trailing unit (€, %, cm…) ignored. */
export function parseNumberAnswer(s: string): number | null {
  const m = /^([+-]?\d+(?:[.,]\d+)?)\s*[^\d\s]*$/.exec(s.replace(/[\s\u00a0\u202f]/g, ''));
  return m ? Number(m[1]!.replace(',', '.')) : null;
}

/**
 * Comparison form of a text answer. The stored (already normalised) accepted strings must not
 * change, so dropping final punctuation happens here, on both sides, and never in storage.
 */
export function comparableText(s: string): string {
  return normaliseFreeAnswer(s).replace(/[\s.!?;:…]+$/u, '');
}

/** Binary floating point makes 0.4 − 0.3 exceed 0.1; a tolerance boundary must still count. */
function within(answer: number, value: number, tolerance: number): boolean {
  const slack = 1e-9 * Math.max(1, Math.abs(value), tolerance);
  return Math.abs(answer - value) <= tolerance + slack;
}

/** Stored in the solution: accepted strings (normalised) or a number with its tolerance. */
export const expectedSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), accept: z.array(z.string()).min(1) }),
  z.object({ kind: z.literal('number'), value: z.number(), tolerance: z.number().min(0) }),
]);
export type Expected = z.infer<typeof expectedSchema>;
export type Answer = string;
/** The accepted answers (text) or the number and its tolerance are absent while the key is withheld. */
export type Detail =
  | { kind: 'text'; accepted?: string[] }
  | { kind: 'number'; value?: number; tolerance?: number; read: number | null };

export function answerSchema(_row: PublicRow): z.ZodType<Answer> {
  return z.string().max(MAX_FREE_ANSWER_LENGTH, `at most ${MAX_FREE_ANSWER_LENGTH} characters`);
}

export function grade(expected: Expected, answer: Answer): GradeResult<Detail> {
  if (expected.kind === 'number') {
    const read = parseNumberAnswer(answer);
    const correct = read !== null && within(read, expected.value, expected.tolerance);
    return {
      ratio: correct ? 1 : 0,
      correct,
      detail: { kind: 'number', value: expected.value, tolerance: expected.tolerance, read },
    };
  }
  const given = comparableText(answer);
  const correct = given !== '' && expected.accept.some((a) => comparableText(a) === given);
  return { ratio: correct ? 1 : 0, correct, detail: { kind: 'text', accepted: expected.accept } };
}

/**
 * The messages of the `answers` entries the learner's answer matches, compared like accepted
 * strings; on a number row a numeric entry also matches the same number written otherwise
 * ("20,0" hits the entry "20").
 */
export function answerFeedbacks(
  result: GradeResult<Detail>,
  answer: Answer,
  feedbacks: RowFeedbacks,
): AnswerFeedback[] {
  const given = comparableText(answer);
  if (given === '') return [];
  const read = result.detail.kind === 'number' ? result.detail.read : null;
  const hits = (m: string) => {
    if (comparableText(m) === given) return true;
    const n = read === null ? null : parseNumberAnswer(m);
    return n !== null && read !== null && within(read, n, 0);
  };
  return (feedbacks.answers ?? [])
    .filter((a) => a.match.some(hits))
    .map((a) => ({ preset: result.correct ? 'success' : 'warning', message: a.message }));
}

/** Right or wrong only: neither the accepted strings nor the expected number. */
export function withoutKey(detail: Detail): Detail {
  return detail.kind === 'number' ? { kind: 'number', read: detail.read } : { kind: 'text' };
}

export const grader = defineGrader({
  expectedSchema,
  answerSchema,
  emptyAnswer: () => '',
  grade: (expected: Expected, answer: Answer) => grade(expected, answer),
  answerFeedbacks,
  withoutKey,
});
