/**
 * Grading a whole page (docs/product.md §3 LessonPage results, §4 Hints/Feedbacks, §5 Exercises): parse
 * the learner's answers against the page's public rows, grade each exercise row with its type's
 * grader, then score the page and pick the feedbacks to show. Pure: the API loads the rows,
 * solution and hints, calls these and stores the result.
 *
 * Score rule: every exercise row is worth ROW_POINTS (the content format has no per-row weight);
 * max = ROW_POINTS × exercise rows; actual = max(0, Σ ratio × ROW_POINTS − Σ costs of the hints
 * unlocked), rounded to 2 decimals. Hint costs are in the same points, so a cost-2 hint on a
 * one-question page takes 20 % of it.
 */
import { z } from 'zod';
import type { ExerciseType, PageProgress } from '../entities';
import type { AnswerFeedback, ExerciseGrader, PublicRow } from './exercise-grader';
import { isBlank } from './exercise-grader';
import type { ExerciseDetails, RowCorrection } from './registry';
import { exerciseRegistry, isExerciseType } from './registry';
import type { BlockSolution, RowValidator } from './solution';

/**
 * Points of one exercise row. Not 1: content hint costs are small whole numbers (1, 2) and a
 * cost of 1 would wipe a whole one-question page.
 */
export const ROW_POINTS = 10;

/** Stops a hostile body from producing thousands of issue objects. */
export const MAX_ANSWER_ISSUES = 50;

/** A public row with where it sits in the block's content. */
export interface PageRow {
  section: number;
  row: number;
  content: PublicRow;
}

export const publicRowSchema = z.looseObject({
  type: z.string(),
  choices: z.array(z.unknown()).optional(),
  targets: z.array(z.unknown()).optional(),
  words: z.array(z.string()).optional(),
});

/** The part of `course_blocks.content` grading reads. */
export const pageContentSchema = z.looseObject({
  sections: z.array(z.looseObject({ rows: z.array(publicRowSchema) })).default([]),
});

/** The page's rows in reading order (sections one after the other): answers and ratios follow this order. */
export function pageRows(content: { sections: readonly { rows: readonly PublicRow[] }[] }): PageRow[] {
  return content.sections.flatMap((s, section) =>
    s.rows.map((row, i) => ({ section, row: i, content: row })),
  );
}

// ---------------------------------------------------------------------------------------------
// Answers

export interface AnswerIssue {
  /** Index in the page's rows; null when the body itself is wrong. */
  rowIndex: number | null;
  /** Inside the row's answer, dot-separated ("" for the answer itself, "1.0" for target 1 item 0). */
  path: string;
  message: string;
}

/** One entry per row: the parsed answer, or null for no answer (and for every non-exercise row). */
export type PageAnswers = unknown[];

export type ParsedPageAnswers = { ok: true; answers: PageAnswers } | { ok: false; issues: AnswerIssue[] };

type Issue = z.core.$ZodIssue;

/**
 * A union (pick-words: positions or words) reports every branch; keep the branch the answer was
 * most likely meant for (fewest wrong-type issues) so the message is useful.
 */
function flattenIssues(
  issues: readonly Issue[],
  prefix: readonly PropertyKey[],
): { path: string; message: string }[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const score = (branch: readonly Issue[]) =>
        branch.filter((i) => i.code === 'invalid_type').length * 1000 + branch.length;
      const best = issue.errors.reduce((a, b) => (score(b) < score(a) ? b : a));
      return flattenIssues(best, path);
    }
    return [{ path: path.map(String).join('.'), message: issue.message }];
  });
}

/**
 * Checks `inputs.answers` (an array, one entry per row of the page, null or missing for no
 * answer) against each row: wrong types, out-of-range or repeated indexes, too many items, an
 * answer for a row that takes none or for a row that does not exist. The API answers issues
 * with a 4xx and never grades such a body.
 */
export function parsePageAnswers(rows: readonly PageRow[], rawAnswers: unknown): ParsedPageAnswers {
  if (!Array.isArray(rawAnswers))
    return {
      ok: false,
      issues: [{ rowIndex: null, path: '', message: 'answers must be a list, one entry per row' }],
    };
  if (rawAnswers.length > rows.length)
    return {
      ok: false,
      issues: [{ rowIndex: rows.length, path: '', message: `the page has ${rows.length} rows` }],
    };
  const issues: AnswerIssue[] = [];
  const answers: PageAnswers = rows.map((r, rowIndex) => {
    const raw: unknown = rawAnswers[rowIndex];
    if (raw === null || raw === undefined) return null;
    const type = r.content.type;
    if (!isExerciseType(type)) {
      issues.push({ rowIndex, path: '', message: `a ${type} row takes no answer` });
      return null;
    }
    const parsed = exerciseRegistry[type].answerSchema(r.content).safeParse(raw);
    if (parsed.success) return parsed.data;
    for (const i of flattenIssues(parsed.error.issues, [])) issues.push({ rowIndex, ...i });
    return null;
  });
  return issues.length ? { ok: false, issues: issues.slice(0, MAX_ANSWER_ISSUES) } : { ok: true, answers };
}

/** docs/product.md §5 no-answer rule, per row: rows that take no answer count as empty. */
export function isEmptyAnswer(rowType: string, answer: unknown): boolean {
  return !isExerciseType(rowType) || isBlank(answer);
}

/** True when no exercise row of the page was answered: the web app then shows the no-answer dialog. */
export function allAnswersEmpty(rows: readonly PageRow[], answers: readonly unknown[]): boolean {
  return rows.every((r, i) => isEmptyAnswer(r.content.type, answers[i]));
}

// ---------------------------------------------------------------------------------------------
// Hints

export interface HintsView {
  /** Messages of the unlocked hints only, in order. */
  messages: string[];
  remaining: number;
  /** Cost of the next hint (0: no confirmation needed), null when none is left. */
  nextMalus: number | null;
}

/** docs/product.md §3 results.hints. With the course type's hints off, the page shows none. */
export function hintsView(
  hints: readonly { message: string; cost: number }[],
  used: number,
  settings: { hints: boolean } = { hints: true },
): HintsView {
  if (!settings.hints) return { messages: [], remaining: 0, nextMalus: null };
  const n = clampUsed(used, hints.length);
  return {
    messages: hints.slice(0, n).map((h) => h.message),
    remaining: hints.length - n,
    nextMalus: hints[n]?.cost ?? null,
  };
}

function clampUsed(used: number, length: number): number {
  return Number.isFinite(used) ? Math.min(length, Math.max(0, Math.floor(used))) : 0;
}

/** Points taken by the first `used` hints. */
export function hintCost(hintCosts: readonly number[], used: number): number {
  return hintCosts.slice(0, clampUsed(used, hintCosts.length)).reduce((sum, c) => sum + Math.max(0, c), 0);
}

// ---------------------------------------------------------------------------------------------
// Page grading

/** The course type's settings grading obeys (CourseType.settings, docs/product.md §3). */
export interface GradingSettings {
  hints: boolean;
  feedbacks: boolean;
  retry: boolean;
}

/** For a course without a type: hints and feedbacks on, a completed page is not answered again. */
export const DEFAULT_GRADING_SETTINGS: GradingSettings = { hints: true, feedbacks: true, retry: false };

export type PageOutcome = 'correct' | 'partial' | 'incorrect';

export interface PageFeedback {
  /** General (block) feedbacks come first, then the answer-specific ones, row by row (docs/product.md §4). */
  source: 'general' | 'answer';
  preset: string;
  message: string;
  /** The row an answer-specific feedback is about; null for general ones. */
  rowIndex: number | null;
}

export interface GradePageInput {
  rows: readonly PageRow[];
  solution: BlockSolution;
  /** From a successful parsePageAnswers; anything else throws. */
  answers: readonly unknown[];
  /** How many hints the learner unlocked on this page. */
  hintsUsed: number;
  /** The block's hint costs, in order. */
  hintCosts: readonly number[];
  settings: GradingSettings;
}

export interface PageGrade {
  /** Per row in pageRows order; null for rows that are not exercises. */
  answerRatios: (number | null)[];
  score: { actual: number; max: number };
  /** Every exercise right, none earning anything, or in between; null on a page without exercises. */
  outcome: PageOutcome | null;
  /** Empty when the course type's feedbacks are off. */
  feedbacks: PageFeedback[];
  /** Per row, what correction mode shows; null for rows that are not exercises. */
  correction: (RowCorrection | null)[];
  /** Points the unlocked hints cost (0 when the course type's hints are off). */
  hintCost: number;
  /** The course type allows a retry and something is left to get right. */
  retryAllowed: boolean;
  /** A graded page is done (docs/product.md §4 page progress). */
  progress: PageProgress;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Grades one row and picks its answer-specific feedbacks, with one grader so detail types line up. */
function gradeRow<T extends ExerciseType>(
  type: T,
  row: PageRow,
  validator: RowValidator,
  answer: unknown,
): { correction: RowCorrection; feedbacks: AnswerFeedback[] } {
  const g: ExerciseGrader<ExerciseDetails[T]> = exerciseRegistry[type];
  const given = answer === null || answer === undefined ? g.emptyAnswer(row.content) : answer;
  const result = g.grade(validator.expected, given, row.content);
  const fb = validator.feedbacks;
  const feedbacks: AnswerFeedback[] = [];
  if (result.correct && fb.correct) feedbacks.push({ preset: 'success', message: fb.correct });
  if (!result.correct && fb.incorrect) feedbacks.push({ preset: 'danger', message: fb.incorrect });
  feedbacks.push(...g.answerFeedbacks(result, given, row.content, fb));
  // TS cannot correlate `type` with the detail type of the union member; the registry does.
  return { correction: { type, ...result } as RowCorrection, feedbacks };
}

export function gradePage(input: GradePageInput): PageGrade {
  const { rows, solution, answers, settings } = input;
  const validators = new Map(solution.validators.map((v) => [`${v.section}:${v.row}`, v]));

  const answerRatios: (number | null)[] = [];
  const correction: (RowCorrection | null)[] = [];
  const answerFeedbacks: PageFeedback[] = [];
  let exercises = 0;
  let earned = 0;
  let ratioSum = 0;
  let allCorrect = true;

  rows.forEach((row, rowIndex) => {
    const type = row.content.type;
    if (!isExerciseType(type)) {
      answerRatios.push(null);
      correction.push(null);
      return;
    }
    const validator = validators.get(`${row.section}:${row.row}`);
    // The importer writes one validator per exercise row; a gap means the stored block is broken.
    if (!validator || validator.type !== type)
      throw new Error(`no ${type} validator for section ${row.section} row ${row.row}`);
    // A parametrised row is graded only against the learner's own values (instantiateSolution).
    if (validator.formula !== undefined)
      throw new Error(`section ${row.section} row ${row.row}: the solution was not instantiated`);
    const { correction: graded, feedbacks } = gradeRow(type, row, validator, answers[rowIndex]);
    exercises++;
    earned += graded.ratio * ROW_POINTS;
    ratioSum += graded.ratio;
    allCorrect &&= graded.correct;
    answerRatios.push(graded.ratio);
    correction.push(graded);
    for (const f of feedbacks) answerFeedbacks.push({ source: 'answer', rowIndex, ...f });
  });

  const outcome: PageOutcome | null =
    exercises === 0 ? null : allCorrect ? 'correct' : ratioSum === 0 ? 'incorrect' : 'partial';
  const cost = settings.hints ? hintCost(input.hintCosts, input.hintsUsed) : 0;
  const general: PageFeedback[] = solution.feedbacks
    .filter((f) => f.when === 'always' || f.when === outcome)
    .map((f) => ({ source: 'general', preset: f.preset, message: f.message, rowIndex: null }));

  return {
    answerRatios,
    score: { actual: round2(Math.max(0, earned - cost)), max: exercises * ROW_POINTS },
    outcome,
    feedbacks: settings.feedbacks ? [...general, ...answerFeedbacks] : [],
    correction,
    hintCost: cost,
    retryAllowed: settings.retry && exercises > 0 && !allCorrect,
    progress: 'COMPLETED',
  };
}
