/**
 * What every exercise type provides (docs/architecture.md §5: one folder per type) and the pieces they
 * share. A grader is pure: the API feeds it the stored solution and the learner's answer, the
 * web app may reuse `answerSchema` to shape what it sends.
 */
import { z } from 'zod';

/** The learner's answers are bounded by the row; this caps what no row can legitimately need. */
export const MAX_FREE_ANSWER_LENGTH = 1000;

/**
 * A row of the page's public content (`course_blocks.content.sections[].rows[]`), as the importer
 * writes it. Only the fields that bound an answer are typed: `choices` (multiple-choice,
 * combined-choice, drag-n-drop; the zones of image-cliquable), `targets` (drag-n-drop) and
 * `words` (pick-words).
 */
export interface PublicRow {
  type: string;
  choices?: readonly unknown[] | undefined;
  targets?: readonly unknown[] | undefined;
  words?: readonly string[] | undefined;
  [field: string]: unknown;
}

/** Per item (choice, zone, word) in correction mode. `missing`: expected but not given. */
export type ItemStatus = 'correct' | 'wrong' | 'missing' | 'neutral';

export interface GradeResult<D> {
  /** 0..1, the share of the row's points earned. */
  ratio: number;
  /** Only a full answer is correct (docs/product.md §5: "correct when its result equals 1"). */
  correct: boolean;
  detail: D;
}

export const FEEDBACK_PRESETS = ['success', 'info', 'warning', 'danger'] as const;
export type FeedbackPreset = (typeof FEEDBACK_PRESETS)[number];

/** Row feedbacks as stored in a validator (shape written by apps/api/src/content/blocks.ts). */
export const rowFeedbacksSchema = z.object({
  correct: z.string().optional(),
  incorrect: z.string().optional(),
  /** choice/zone index -> message, shown when that choice is picked (or misplaced for drag-n-drop). */
  choices: z.record(z.string(), z.string()).optional(),
  /** free-answer: normalised answers -> message. */
  answers: z.array(z.object({ match: z.array(z.string()), message: z.string() })).optional(),
});
export type RowFeedbacks = z.infer<typeof rowFeedbacksSchema>;

export interface AnswerFeedback {
  preset: FeedbackPreset;
  message: string;
}

/** The typed contract each `<type>/grader.ts` implements. */
export interface TypedGrader<E, A, D> {
  expectedSchema: z.ZodType<E>;
  answerSchema(row: PublicRow): z.ZodType<A>;
  /** What grading uses when no answer was sent for the row. */
  emptyAnswer(row: PublicRow): A;
  grade(expected: E, answer: A, row: PublicRow): GradeResult<D>;
  /** Answer-specific messages (picked choice, matched wrong answer…), after the row's correct/incorrect one. */
  answerFeedbacks(result: GradeResult<D>, answer: A, feedbacks: RowFeedbacks): AnswerFeedback[];
  /**
   * The detail without the expected answer: what the learner gave, each part right or wrong,
   * nothing of what they did not give (shown while a retry can still be graded, decision 0009).
   */
  withoutKey(detail: D): D;
}

/**
 * The same contract with `unknown` inputs, so the registry can hold every type in one record.
 * Inputs are validated on the way in: a stored solution that no longer fits its schema or an
 * answer that skipped parsePageAnswers throws instead of being graded as something else.
 */
export interface ExerciseGrader<D = unknown> {
  readonly expectedSchema: z.ZodType;
  answerSchema(row: PublicRow): z.ZodType;
  emptyAnswer(row: PublicRow): unknown;
  grade(expected: unknown, answer: unknown, row: PublicRow): GradeResult<D>;
  answerFeedbacks(
    result: GradeResult<D>,
    answer: unknown,
    row: PublicRow,
    feedbacks: RowFeedbacks,
  ): AnswerFeedback[];
  withoutKey(detail: D): D;
}

export function defineGrader<E, A, D>(g: TypedGrader<E, A, D>): ExerciseGrader<D> {
  // A row's answer schema depends on that row only, and grading one answer needs it three
  // times (parse, grade, feedbacks); the server also keeps parsed rows per block version, so
  // schemas are built once per row object. WeakMap: a row dropped from the cache frees its schema.
  const schemas = new WeakMap<PublicRow, z.ZodType<A>>();
  const answerSchema = (row: PublicRow): z.ZodType<A> => {
    let schema = schemas.get(row);
    if (!schema) {
      schema = g.answerSchema(row);
      schemas.set(row, schema);
    }
    return schema;
  };
  return {
    expectedSchema: g.expectedSchema,
    answerSchema,
    emptyAnswer: (row) => g.emptyAnswer(row),
    grade: (expected, answer, row) =>
      g.grade(g.expectedSchema.parse(expected), answerSchema(row).parse(answer), row),
    answerFeedbacks: (result, answer, row, feedbacks) =>
      g.answerFeedbacks(result, answerSchema(row).parse(answer), feedbacks),
    withoutKey: (detail) => g.withoutKey(detail),
  };
}

/**
 * One emptiness rule fits every type, because each type's "nothing given" is structural:
 * null (combined-choice, or no answer sent), a blank string (free-answer), an empty list
 * (multiple-choice, pick-words, image-cliquable) or only empty lists (drag-n-drop). Index 0 is
 * an answer.
 */
export function isBlank(answer: unknown): boolean {
  if (answer === null || answer === undefined) return true;
  if (typeof answer === 'string') return answer.trim() === '';
  if (Array.isArray(answer)) return answer.every(isBlank);
  return false;
}

export const countOf = (list: readonly unknown[] | undefined): number => list?.length ?? 0;

/** 0-based index of an item of a list of `count` items. */
export function indexSchema(count: number) {
  return z
    .number()
    .int('an index must be an integer')
    .min(0, 'an index cannot be negative')
    .max(count - 1, `an index must be below ${count}`);
}

export function distinct<T>(list: readonly T[], key: (x: T) => unknown = (x) => x): boolean {
  return new Set(list.map(key)).size === list.length;
}

/** A set of distinct indexes into `count` items: multiple-choice, image-cliquable, pick-words positions. */
export function indexSetSchema(count: number) {
  return z
    .array(indexSchema(count))
    .max(count, `at most ${count} items`)
    .refine((l) => distinct(l), 'each index at most once');
}

export interface IndexSetDetail {
  /** Status of every item, by index. */
  items: ItemStatus[];
}

/**
 * Partial credit for "pick the right ones" rows: every right pick earns a share, every wrong
 * pick takes one back, so ticking everything earns nothing. ratio = max(0, (right − wrong) /
 * expected); correct only with every expected item and no other.
 */
export function gradeIndexSet(
  expected: readonly number[],
  picked: readonly number[],
  count: number,
): GradeResult<IndexSetDetail> {
  const want = new Set(expected);
  const got = new Set(picked);
  let right = 0;
  let wrong = 0;
  for (const i of got)
    if (want.has(i)) right++;
    else wrong++;
  const missing = want.size - right;
  const items: ItemStatus[] = Array.from({ length: count }, (_, i) =>
    got.has(i) ? (want.has(i) ? 'correct' : 'wrong') : want.has(i) ? 'missing' : 'neutral',
  );
  const ratio = want.size === 0 ? (wrong === 0 ? 1 : 0) : Math.max(0, (right - wrong) / want.size);
  return { ratio, correct: wrong === 0 && missing === 0, detail: { items } };
}

/** An item the learner did not pick reads as neutral: `missing` would tell it was expected. */
export function indexSetWithoutKey(detail: IndexSetDetail): IndexSetDetail {
  return { items: detail.items.map((s) => (s === 'missing' ? 'neutral' : s)) };
}

/** Messages of the picked items that carry one; a right pick reads as praise, a wrong one as a warning. */
export function pickedChoiceFeedbacks(
  items: readonly ItemStatus[],
  picked: readonly number[],
  feedbacks: RowFeedbacks,
): AnswerFeedback[] {
  const out: AnswerFeedback[] = [];
  for (const i of [...picked].sort((a, b) => a - b)) {
    const message = feedbacks.choices?.[String(i)];
    if (message) out.push({ preset: items[i] === 'correct' ? 'success' : 'warning', message });
  }
  return out;
}
