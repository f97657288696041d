import type { PageResults } from '@parcours/domain/entities';
import { gradePage, hintsView, parsePageAnswers } from '@parcours/domain/exercises/grade-page';
import type { AnswerIssue } from '@parcours/domain/exercises/grade-page';
import { ApiError } from '../../plugins/errors';
import type { Resource } from '../../plugins/jsonapi';
import { notFound } from '../scope';
import { isLate } from './clock';
import { activePage, blockOf, conflict, nodeOf, withPage } from './context';
import type { Loaded, PlayerContext } from './context';
import type { BlockContent } from './content-cache';
import { solutionFor } from './datasets';
import { pageDocument } from './document';
import { pageDeadlineOf } from './limits';
import type { PlanNode } from './plan';
import { loadForWrite } from './lesson-state';
import { writeGrade } from './record';
import { findPage } from './repository';
import type { PageRow } from './repository';

/** Answering a page: grading and recording it once (PATCH …/pages/current). */

interface GradeJob {
  page: PageRow;
  content: BlockContent;
  answers: unknown[];
  skipped: boolean;
}

/**
 * Grades and records in one transaction: the page (only if still unanswered — see
 * recordAnswer), the learner's XP and done pages, then the lesson (afterPageCompleted).
 * Returns the state after the write, or null when another submission got there first (nothing
 * is written then).
 */
export async function commitGrade(ctx: PlayerContext, l: Loaded, job: GradeJob): Promise<Loaded | null> {
  const { page } = job;
  const { rows, solution: blockSolution } = ctx.cache.grading(job.content);
  // A parametrised block is graded against this learner's own values (decision 0042).
  const solution = solutionFor(blockSolution, page);
  const hints = ctx.cache.hints(job.content);
  const grade = gradePage({
    rows,
    solution,
    answers: job.answers,
    hintsUsed: page.hintsUsed,
    hintCosts: hints.map((h) => h.cost),
    settings: l.settings,
  });
  const results: PageResults = {
    answerRatios: grade.answerRatios,
    outcome: grade.outcome,
    score: grade.score,
    // A page closed by its time limit shows no answer-specific praise or blame.
    feedbacks: job.skipped ? [] : grade.feedbacks,
    correction: grade.correction,
    hints: hintsView(hints, page.hintsUsed, l.settings),
    retryAllowed: grade.retryAllowed,
    ...(job.skipped ? { skipped: true } : {}),
  };
  return commitResults(ctx, l, page, job.answers, results);
}

/**
 * Records results computed for `page` (see commitGrade): one transaction, written only if the
 * page is still unanswered (and, for a module's score, its launch still unused); null when
 * another submission got there first (nothing written).
 */
export async function commitResults(
  ctx: PlayerContext,
  l: Loaded,
  page: PageRow,
  answers: unknown[],
  results: PageResults,
  launch?: string,
): Promise<Loaded | null> {
  const iso = ctx.receivedAt.toISOString();
  const inputs = JSON.stringify({ answers });
  const resultsText = JSON.stringify(results);
  const written: PageRow = {
    ...page,
    inputs,
    results: resultsText,
    scoreActual: results.score.actual,
    scoreMax: results.score.max,
    progress: 'COMPLETED',
    answeredAt: iso,
    updatedAt: iso,
    launchToken: launch === undefined ? page.launchToken : null,
  };
  // XP (a page counts once; a retry adds only what it improves on the best earlier attempt) and
  // the lesson's score are written by the database with the page (decision 0016, record.ts).
  const lesson = await writeGrade(ctx, l, page, {
    inputs,
    results: resultsText,
    scoreActual: written.scoreActual,
    scoreMax: written.scoreMax,
    now: iso,
    hintsUsed: page.hintsUsed,
    launch,
  });
  return lesson ? withPage(l, written, lesson) : null;
}

function pointerOf(issue: AnswerIssue): string {
  if (issue.rowIndex === null) return '/inputs/answers';
  const tail = issue.path ? `/${issue.path.split('.').join('/')}` : '';
  return `/inputs/answers/${issue.rowIndex}${tail}`;
}

/** Lessons with a submission in flight in this process: the second one is told at once (PATCH_IN_PROGRESS). */
export class InFlight {
  private readonly busy = new Set<string>();
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    if (this.busy.has(key)) throw conflict('PATCH_IN_PROGRESS', 'An answer to this lesson is being saved.');
    this.busy.add(key);
    try {
      return await fn();
    } finally {
      this.busy.delete(key);
    }
  }
}

/** The page an answer or a score is for, in its open lesson; an earlier, retried attempt was answered. */
export async function pageToRecord(
  ctx: PlayerContext,
  lessonId: string,
  pageId: string,
): Promise<{ l: Loaded; page: PageRow; node: PlanNode }> {
  // One statement reads the lesson, its window and its pages (decision 0016).
  const l = await loadForWrite(ctx, lessonId);
  const page = l.pages.find((p) => p.id === pageId);
  if (!page) {
    if (await findPage(ctx.db, lessonId, pageId))
      throw conflict('INVALID_INPUTS', 'This page was already answered.');
    throw notFound('Page');
  }
  return { l, page, node: nodeOf(l, page).node };
}

/** Past the page's time limit: recorded as done with no points so the learner moves on; what arrived late is dropped. */
export async function refuseIfLate(
  ctx: PlayerContext,
  l: Loaded,
  page: PageRow,
  node: PlanNode,
  content: BlockContent,
  what: string,
): Promise<void> {
  if (!isLate(ctx.receivedAt, pageDeadlineOf(l.accommodation, page, node))) return;
  await commitGrade(ctx, l, { page, content, answers: [], skipped: true });
  throw conflict('LESSON_PAGE_SKIPPED', `The time for this page ran out before the ${what} arrived.`);
}

/** PATCH …/pages/current: grade and record the learner's answer (or close a slide/tincan). */
export async function answerPage(
  ctx: PlayerContext,
  lessonId: string,
  pageId: string,
  rawAnswers: unknown[] | undefined,
): Promise<Resource> {
  const { l, page, node } = await pageToRecord(ctx, lessonId, pageId);
  if (node.type === 'multiblock') throw conflict('BAD_REQUEST', 'Choose one of the blocks first.');
  if (page.answeredAt) {
    throw l.settings.retry
      ? conflict('INVALID_INPUTS', 'This page was already answered; ask for a retry to answer again.')
      : conflict('RETRY_RESTRICT', 'This page is completed and this course allows no retry.');
  }
  const content = await blockOf(ctx, node);
  const parsed = parsePageAnswers(ctx.cache.grading(content).rows, rawAnswers ?? []);
  if (!parsed.ok)
    throw ApiError.validation(
      parsed.issues.map((i) => ({ detail: i.message, source: { pointer: pointerOf(i) } })),
    );

  await refuseIfLate(ctx, l, page, node, content, 'answer');
  const after = await commitGrade(ctx, l, { page, content, answers: parsed.answers, skipped: false });
  if (!after) throw conflict('PATCH_IN_PROGRESS', 'Another submission of this page was recorded first.');
  return pageDocument(ctx, after, activePage(after, page.id));
}
