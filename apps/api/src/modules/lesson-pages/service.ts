import type { HintsView, PageResults } from '@parcours/domain/entities';
import type { GradingSettings } from '@parcours/domain/exercises/grade-page';
import { ROW_POINTS, gradePage, hintCost, hintsView, parsePageAnswers } from '@parcours/domain/exercises/grade-page';
import type { AnswerIssue } from '@parcours/domain/exercises/grade-page';
import type { Db, DbKind } from '../../db/db';
import { prepared } from '../../db/prepared';
import { parseJson } from '../../db/schema';
import { ApiError } from '../../plugins/errors';
import type { Resource } from '../../plugins/jsonapi';
import { syncLesson } from '../progression/on-lesson-completed';
import { applyProgression } from '../progression/rules';
import { afterPageCompleted } from '../progression/service';
import { notFound } from '../scope';
import { deadlineOf, elapsedSince, isLate, remainingSeconds } from './clock';
import type { LessonPlan, PlanNode, Slot } from './plan';
import type { BlockContent, ContentCache } from './content-cache';
import { activePages, addTime, creditUser, findOwnLesson, findPage, insertPageIfMissing, lastAttempt, recordAnswer, withAnswer } from './repository';
import type { LessonRow, PageRow } from './repository';
import { pageResource, timeLimitOf } from './serializer';
import { writeTx } from './tx';

/**
 * The lesson-page life cycle (docs/api.md "Lesson player"). The server decides which page is
 * current, grades, applies hint costs and judges lateness with the time the request was
 * received (`receivedAt`). Every write runs in one transaction; the one-grade guarantee is the
 * conditional UPDATE of `recordAnswer` (plus the unique indexes on lesson pages), not a check
 * in code, so it holds across tabs and across server processes.
 */

export interface PlayerContext {
  db: Db;
  kind: DbKind;
  contextId: string;
  userId: string;
  /** Server time at which the request arrived: the only clock lateness is judged by. */
  receivedAt: Date;
  cache: ContentCache;
}

interface Loaded {
  lesson: LessonRow;
  plan: LessonPlan;
  pages: PageRow[];
  settings: GradingSettings;
}

const CLOSED_STATES = new Set(['LOCKED', 'HIDDEN', 'EXPIRED']);

const conflict = (code: 'INVALID_INPUTS' | 'RETRY_RESTRICT' | 'PATCH_IN_PROGRESS' | 'LESSON_PAGE_SKIPPED' | 'LESSON_SKIPPED' | 'NO_LESSON_PAGE_AVAILABLE' | 'BAD_REQUEST' | 'MODEL_NOT_FOUND', detail: string) =>
  new ApiError(409, code, detail);

// ---------------------------------------------------------------------------------------------
// Loading and access

/**
 * The learner's own lesson (another learner's: 404), open (LOCKED/HIDDEN/EXPIRED: 403). For a
 * write, a lesson whose own time limit is over is closed as SKIPPED first, then refused.
 */
async function loadLesson(ctx: PlayerContext, lessonId: string, mode: 'read' | 'write', sync = false): Promise<LessonRow> {
  const found = await findOwnLesson(ctx.db, ctx.contextId, ctx.userId, lessonId);
  if (!found) throw notFound('Lesson');
  // Issue 4: on opening, windows and time limits are applied before the state is judged.
  const lesson = sync ? await syncLesson(ctx.db, ctx.kind, found, ctx.receivedAt, (ids) => ctx.cache.programContexts(ctx.db, ids)) : found;
  if (CLOSED_STATES.has(lesson.state)) throw new ApiError(403, 'Forbidden', 'This lesson is not open.');
  if (mode === 'write') await refuseIfLessonTimeIsUp(ctx, lesson);
  return lesson;
}

async function refuseIfLessonTimeIsUp(ctx: PlayerContext, lesson: LessonRow): Promise<void> {
  if (lesson.state === 'SKIPPED') throw conflict('LESSON_SKIPPED', 'The time of this lesson is up.');
  if (!isLate(ctx.receivedAt, deadlineOf(lesson.startedAt, lesson.timeLimit))) return;
  const iso = ctx.receivedAt.toISOString();
  // Recorded before refusing, so the dashboard shows the lesson as ended (SPEC §4 lesson state),
  // and in the same transaction the program's rules open what follows it, as a completion does.
  await writeTx(ctx.db, ctx.kind, async (trx) => {
    const res = await trx
      .updateTable('lessons')
      .set({ state: 'SKIPPED', endedAt: iso, updatedAt: iso })
      .where('id', '=', lesson.id)
      .where('state', '!=', 'SKIPPED')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1 && lesson.classProgramId) {
      await applyProgression(trx, [{ userId: lesson.userId, classProgramId: lesson.classProgramId }], ctx.receivedAt);
    }
  });
  throw conflict('LESSON_SKIPPED', 'The time of this lesson is up.');
}

async function loadAll(ctx: PlayerContext, lesson: LessonRow): Promise<Loaded> {
  const [course, pages] = await Promise.all([ctx.cache.course(ctx.db, lesson.courseId), activePages(ctx.db, lesson.id)]);
  return { lesson, plan: ctx.cache.plan(course, lesson.enabledSectionIds), pages, settings: ctx.cache.gradingSettings(course) };
}

/** Index of the furthest slot reached, -1 before the first opening. */
function frontierOf(l: Loaded): number {
  let max = -1;
  for (const p of l.pages) max = Math.max(max, l.plan.slotOfNode(p.nodeId)?.index ?? -1);
  return max;
}

/** The active page of a slot: a block's page; for a multiblock, the chosen child's page, else the chooser. */
function pageOfSlot(l: Loaded, slot: Slot): PageRow | undefined {
  if (slot.node.type === 'multiblock') {
    const childIds = new Set(slot.children.map((c) => c.id));
    const chosen = l.pages.filter((p) => childIds.has(p.nodeId)).sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1))[0];
    if (chosen) return chosen;
  }
  return l.pages.find((p) => p.nodeId === slot.node.id);
}

function nodeOf(l: Loaded, page: PageRow): { node: PlanNode; slot: Slot } {
  const node = l.plan.nodes.get(page.nodeId);
  const slot = l.plan.slotOfNode(page.nodeId);
  // The course changed under the page (node removed, section disabled): it is no longer part of the lesson.
  if (!node || !slot) throw notFound('Page');
  return { node, slot };
}

function activePage(l: Loaded, pageId: string): PageRow {
  const page = l.pages.find((p) => p.id === pageId);
  if (!page) throw notFound('Page');
  return page;
}

async function blockOf(ctx: PlayerContext, node: PlanNode): Promise<BlockContent> {
  const content = node.blockId ? await ctx.cache.block(ctx.db, ctx.contextId, node.blockId) : null;
  if (!content) throw notFound('Block');
  return content;
}

/** The loaded state after a write, without reading back what this request just wrote. */
function withPage(l: Loaded, page: PageRow, lesson: LessonRow = l.lesson): Loaded {
  return { ...l, lesson, pages: [...l.pages.filter((p) => p.nodeId !== page.nodeId), ...(page.state === 'ARCHIVED' ? [] : [page])] };
}

// ---------------------------------------------------------------------------------------------
// Documents

async function pageDocument(ctx: PlayerContext, l: Loaded, shown: PageRow): Promise<Resource> {
  const { node, slot } = nodeOf(l, shown);
  // An answered page shows its answer and correction: read them for this page only.
  const page = shown.answeredAt ? await withAnswer(ctx.db, shown) : shown;
  const content = node.type === 'multiblock' ? null : await blockOf(ctx, node);
  const done = new Set(l.pages.filter((p) => p.progress === 'COMPLETED').map((p) => p.nodeId));
  const timeLimit = page.timeLimit ?? timeLimitOf(node);
  return pageResource({
    page,
    node,
    block: content ? ctx.cache.view(content) : null,
    children: node.type === 'multiblock' ? slot.children.map((c) => ({ nodeId: c.id, title: c.title, done: done.has(c.id) })) : [],
    index: slot.index,
    count: l.plan.slots.length,
    current: l.lesson.currentNodeId === page.nodeId,
    hints: content ? hintsView(ctx.cache.hints(content), page.hintsUsed, l.settings) : hintsView([], 0, l.settings),
    settings: l.settings,
    lessonScoring: parseJson(l.lesson.scoring, { global: { actual: 0, max: 0 } }),
    remainingSeconds: page.answeredAt ? null : remainingSeconds(ctx.receivedAt, deadlineOf(page.startedAt, timeLimit)),
    lessonTimeLimit: l.lesson.timeLimit,
    lessonRemainingSeconds: remainingSeconds(ctx.receivedAt, deadlineOf(l.lesson.startedAt, l.lesson.timeLimit)),
  });
}

// ---------------------------------------------------------------------------------------------
// Reaching pages

// Moving forward sets the current page; reopening an earlier page leaves it where it is.
const reachForward = prepared((db: Db, lessonId: string, nodeId: string, now: string) =>
  db
    .updateTable('lessons')
    .set((eb) => ({
      currentNodeId: nodeId,
      startedAt: eb.fn.coalesce('startedAt', eb.val(now)),
      progress: eb.fn.coalesce('progress', eb.val('ONGOING')),
      updatedAt: now,
    }))
    .where('id', '=', lessonId),
);
const reachBehind = prepared((db: Db, lessonId: string, now: string) =>
  db
    .updateTable('lessons')
    .set((eb) => ({ startedAt: eb.fn.coalesce('startedAt', eb.val(now)), progress: eb.fn.coalesce('progress', eb.val('ONGOING')), updatedAt: now }))
    .where('id', '=', lessonId),
);

/** Creates the page of a slot (or a multiblock's chosen child) and moves `currentNodeId` forward, never back. */
async function reach(ctx: PlayerContext, l: Loaded, slot: Slot, node: PlanNode = slot.node): Promise<Resource> {
  const iso = ctx.receivedAt.toISOString();
  const advance = slot.index >= frontierOf(l);
  const page = await writeTx(ctx.db, ctx.kind, async (trx) => {
    const { attempt } = await lastAttempt(trx, l.lesson.id, node.id);
    const page = await insertPageIfMissing(trx, {
      lessonId: l.lesson.id,
      nodeId: node.id,
      sectionId: slot.sectionId,
      position: slot.index,
      attempt: attempt + 1,
      timeLimit: timeLimitOf(node),
      now: iso,
    });
    if (advance) await reachForward.run(trx, l.lesson.id, node.id, iso);
    else await reachBehind.run(trx, l.lesson.id, iso);
    return page;
  });
  const lesson: LessonRow = {
    ...l.lesson,
    currentNodeId: advance ? node.id : l.lesson.currentNodeId,
    startedAt: l.lesson.startedAt ?? iso,
    progress: l.lesson.progress ?? 'ONGOING',
  };
  return pageDocument(ctx, withPage(l, page, lesson), page);
}

export interface OpenOptions {
  pageId?: string | undefined;
  section?: string | undefined;
}

/** GET …/pages/current: the current page (created on first open), a reached page, or a section's first page. */
export async function openPage(ctx: PlayerContext, lessonId: string, o: OpenOptions): Promise<Resource> {
  // Reading a reached page (correction mode) is always allowed; anything that may move the learner is a write.
  const lesson = await loadLesson(ctx, lessonId, o.pageId ? 'read' : 'write', true);
  const l = await loadAll(ctx, lesson);
  if (o.pageId) return pageDocument(ctx, l, activePage(l, o.pageId));
  if (l.plan.slots.length === 0) throw conflict('NO_LESSON_PAGE_AVAILABLE', 'This lesson has no page.');

  let slot: Slot;
  if (o.section) {
    if (!l.plan.sections.includes(o.section)) throw new ApiError(404, 'MODEL_NOT_FOUND', 'Section not found.', { parameter: 'section' });
    const first = l.plan.slots.find((s) => s.sectionId === o.section);
    if (!first) throw conflict('NO_LESSON_PAGE_AVAILABLE', 'This section has no page.');
    // Order is the server's: a section opens only once the learner got there.
    if (first.index > Math.max(frontierOf(l), 0)) throw new ApiError(403, 'Forbidden', 'This section is not reached yet.', { parameter: 'section' });
    slot = first;
  } else {
    if (lesson.progress === 'COMPLETED') throw conflict('NO_LESSON_PAGE_AVAILABLE', 'Every page of this lesson is done.');
    const current = lesson.currentNodeId ? l.plan.slotOfNode(lesson.currentNodeId) : undefined;
    const frontier = frontierOf(l);
    slot = current ?? l.plan.slots[Math.max(frontier, 0)]!;
    const chosen = lesson.currentNodeId ? l.pages.find((p) => p.nodeId === lesson.currentNodeId) : undefined;
    if (chosen && current) return pageDocument(ctx, l, chosen);
  }
  const existing = pageOfSlot(l, slot);
  if (existing) return pageDocument(ctx, l, existing);
  return reach(ctx, l, slot);
}

/** POST …/pages/current/choose: a multiblock's child block, chosen by the learner. */
export async function choosePage(ctx: PlayerContext, lessonId: string, pageId: string, nodeId: string): Promise<Resource> {
  const lesson = await loadLesson(ctx, lessonId, 'write');
  const l = await loadAll(ctx, lesson);
  const page = activePage(l, pageId);
  const { node, slot } = nodeOf(l, page);
  if (node.type !== 'multiblock') throw conflict('BAD_REQUEST', 'This page offers no choice.');
  const child = slot.children.find((c) => c.id === nodeId);
  if (!child) throw new ApiError(404, 'MODEL_NOT_FOUND', 'No such block in this choice.', { pointer: '/nodeId' });
  const existing = l.pages.find((p) => p.nodeId === child.id);
  if (existing) return pageDocument(ctx, l, existing);
  return reach(ctx, l, slot, child);
}

// ---------------------------------------------------------------------------------------------
// Answering

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
async function commitGrade(ctx: PlayerContext, l: Loaded, job: GradeJob): Promise<Loaded | null> {
  const { page } = job;
  const { rows, solution } = ctx.cache.grading(job.content);
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
 * page is still unanswered; null when another submission got there first (nothing written).
 */
async function commitResults(ctx: PlayerContext, l: Loaded, page: PageRow, answers: unknown[], results: PageResults): Promise<Loaded | null> {
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
  };
  const lesson = await writeTx(ctx.db, ctx.kind, async (trx) => {
    const earlier = page.attempt > 1 ? (await lastAttempt(trx, l.lesson.id, page.nodeId)).best : 0;
    const ok = await recordAnswer(trx, page.id, {
      inputs,
      results: resultsText,
      scoreActual: written.scoreActual,
      scoreMax: written.scoreMax,
      now: iso,
      hintsUsed: page.hintsUsed,
    });
    if (!ok) return null;
    // XP counts a page once; a retry only adds what it improves on the best earlier attempt.
    const xp = Math.max(0, Math.round((results.score.actual - earlier) * 100) / 100);
    await creditUser(trx, ctx.kind, ctx.userId, xp, page.attempt === 1 ? 1 : 0, iso);
    return afterPageCompleted(trx, l.lesson, ctx.receivedAt, l.plan);
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
async function pageToRecord(ctx: PlayerContext, lessonId: string, pageId: string): Promise<{ l: Loaded; page: PageRow; node: PlanNode }> {
  const lesson = await loadLesson(ctx, lessonId, 'write');
  const l = await loadAll(ctx, lesson);
  const page = l.pages.find((p) => p.id === pageId);
  if (!page) {
    if (await findPage(ctx.db, lessonId, pageId)) throw conflict('INVALID_INPUTS', 'This page was already answered.');
    throw notFound('Page');
  }
  return { l, page, node: nodeOf(l, page).node };
}

/** Past the page's time limit: recorded as done with no points so the learner moves on; what arrived late is dropped. */
async function refuseIfLate(ctx: PlayerContext, l: Loaded, page: PageRow, node: PlanNode, content: BlockContent, what: string): Promise<void> {
  if (!isLate(ctx.receivedAt, deadlineOf(page.startedAt ?? page.openedAt, page.timeLimit ?? timeLimitOf(node)))) return;
  await commitGrade(ctx, l, { page, content, answers: [], skipped: true });
  throw conflict('LESSON_PAGE_SKIPPED', `The time for this page ran out before the ${what} arrived.`);
}

/** PATCH …/pages/current: grade and record the learner's answer (or close a slide/tincan). */
export async function answerPage(ctx: PlayerContext, lessonId: string, pageId: string, rawAnswers: unknown[] | undefined): Promise<Resource> {
  const { l, page, node } = await pageToRecord(ctx, lessonId, pageId);
  if (node.type === 'multiblock') throw conflict('BAD_REQUEST', 'Choose one of the blocks first.');
  if (page.answeredAt) {
    throw l.settings.retry
      ? conflict('INVALID_INPUTS', 'This page was already answered; ask for a retry to answer again.')
      : conflict('RETRY_RESTRICT', 'This page is completed and this course allows no retry.');
  }
  const content = await blockOf(ctx, node);
  const parsed = parsePageAnswers(ctx.cache.grading(content).rows, rawAnswers ?? []);
  if (!parsed.ok) throw ApiError.validation(parsed.issues.map((i) => ({ detail: i.message, source: { pointer: pointerOf(i) } })));

  await refuseIfLate(ctx, l, page, node, content, 'answer');
  const after = await commitGrade(ctx, l, { page, content, answers: parsed.answers, skipped: false });
  if (!after) throw conflict('PATCH_IN_PROGRESS', 'Another submission of this page was recorded first.');
  return pageDocument(ctx, after, activePage(after, page.id));
}

/** A learning module's score in the xAPI `result.score` shape (checked by the route). */
export interface TincanScore {
  scaled?: number | undefined;
  raw?: number | undefined;
  min?: number | undefined;
  max?: number | undefined;
}

/** The score as a fraction 0..1: `scaled` when given, else (raw − min) / (max − min) with min 0 by default. */
export function tincanFraction(score: TincanScore): number {
  let f: number;
  if (score.scaled !== undefined) f = score.scaled;
  else {
    const min = score.min ?? 0;
    const max = score.max ?? Number.NaN;
    f = (Number(score.raw) - min) / (max - min);
  }
  // The route refuses anything else; clamped so a bad caller can never earn more than the page is worth.
  return Number.isFinite(f) ? Math.min(1, Math.max(0, f)) : 0;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * POST …/pages/custom-tincan-score: a tincan page scored by its learning module. The page is
 * worth ROW_POINTS; the module's fraction of it (minus the costs of unlocked hints, as for any
 * page) is recorded once, like an answer (same transaction, same one-grade guarantee).
 */
export async function recordTincanScore(ctx: PlayerContext, lessonId: string, pageId: string, score: TincanScore): Promise<Resource> {
  const { l, page, node } = await pageToRecord(ctx, lessonId, pageId);
  if (node.type === 'multiblock') throw conflict('BAD_REQUEST', 'This page is not a learning module.');
  const content = await blockOf(ctx, node);
  if (content.block.type !== 'tincan') throw conflict('BAD_REQUEST', 'This page is not a learning module.');
  if (page.answeredAt) throw conflict('INVALID_INPUTS', 'This page was already answered; its score is recorded.');

  await refuseIfLate(ctx, l, page, node, content, 'score');
  const f = tincanFraction(score);
  const hints = ctx.cache.hints(content);
  const cost = l.settings.hints ? hintCost(hints.map((h) => h.cost), page.hintsUsed) : 0;
  const rows = ctx.cache.grading(content).rows;
  const results: PageResults = {
    answerRatios: rows.map(() => null),
    outcome: f === 1 ? 'correct' : f === 0 ? 'incorrect' : 'partial',
    score: { actual: round2(Math.max(0, f * ROW_POINTS - cost)), max: ROW_POINTS },
    feedbacks: [],
    correction: rows.map(() => null),
    hints: hintsView(hints, page.hintsUsed, l.settings),
    retryAllowed: false,
    tincan: { scaled: f },
  };
  const after = await commitResults(ctx, l, page, [], results);
  if (!after) throw conflict('PATCH_IN_PROGRESS', 'Another submission of this page was recorded first.');
  return pageDocument(ctx, after, activePage(after, page.id));
}

/** POST …/pages/current/retry: archives the answered page and opens a new attempt (course type `retry`). */
export async function retryPage(ctx: PlayerContext, lessonId: string, pageId: string): Promise<Resource> {
  const lesson = await loadLesson(ctx, lessonId, 'write');
  const l = await loadAll(ctx, lesson);
  const page = l.pages.find((p) => p.id === pageId);
  if (!page) {
    // Already replaced by a retry (another tab's, say).
    if (await findPage(ctx.db, lessonId, pageId)) throw conflict('INVALID_INPUTS', 'This attempt was already retried.');
    throw notFound('Page');
  }
  const { node, slot } = nodeOf(l, page);
  if (!page.answeredAt) throw conflict('BAD_REQUEST', 'This page is not answered yet.');
  const results = parseJson<Partial<PageResults>>((await withAnswer(ctx.db, page)).results, {});
  if (!l.settings.retry || results.retryAllowed !== true) throw conflict('RETRY_RESTRICT', 'This page cannot be answered again.');
  const iso = ctx.receivedAt.toISOString();
  const { fresh, lesson: updated } = await writeTx(ctx.db, ctx.kind, async (trx) => {
    const archived = await trx
      .updateTable('lessonPages')
      .set({ state: 'ARCHIVED', updatedAt: iso })
      .where('id', '=', page.id)
      .where('state', '=', 'ACTIVE')
      .executeTakeFirst();
    if (Number(archived.numUpdatedRows) !== 1) throw conflict('PATCH_IN_PROGRESS', 'This page is being retried already.');
    const fresh = await insertPageIfMissing(trx, {
      lessonId,
      nodeId: node.id,
      sectionId: slot.sectionId,
      position: slot.index,
      attempt: page.attempt + 1,
      timeLimit: timeLimitOf(node),
      now: iso,
    });
    return { fresh, lesson: await afterPageCompleted(trx, lesson, ctx.receivedAt, l.plan) };
  });
  return pageDocument(ctx, withPage(l, fresh, updated), fresh);
}

// ---------------------------------------------------------------------------------------------
// Moving

/** A page left unanswered: slides and tincan close with an empty answer; an exercise whose time ran out is recorded as skipped. */
async function closeBeforeLeaving(ctx: PlayerContext, l: Loaded, page: PageRow, node: PlanNode): Promise<Loaded> {
  if (node.type === 'multiblock') throw conflict('BAD_REQUEST', 'Choose one of the blocks first.');
  const content = await blockOf(ctx, node);
  const late = isLate(ctx.receivedAt, deadlineOf(page.startedAt ?? page.openedAt, page.timeLimit ?? timeLimitOf(node)));
  if (content.block.type !== 'exercice' || late) {
    // null: another request closed it meanwhile, which is just as good for moving on.
    return (await commitGrade(ctx, l, { page, content, answers: [], skipped: content.block.type === 'exercice' })) ?? (await loadAll(ctx, l.lesson));
  }
  throw conflict('BAD_REQUEST', 'Answer this page first (an empty answer is accepted).');
}

/** POST …/pages/next */
export async function nextPage(ctx: PlayerContext, lessonId: string, fromPageId: string): Promise<Resource> {
  const lesson = await loadLesson(ctx, lessonId, 'write');
  let l = await loadAll(ctx, lesson);
  const from = activePage(l, fromPageId);
  const { node, slot } = nodeOf(l, from);
  if (from.progress !== 'COMPLETED') l = await closeBeforeLeaving(ctx, l, from, node);
  const target = l.plan.slots[slot.index + 1];
  if (!target) throw conflict('NO_LESSON_PAGE_AVAILABLE', 'This was the last page of the lesson.');
  const existing = pageOfSlot(l, target);
  return existing ? pageDocument(ctx, l, existing) : reach(ctx, l, target);
}

/** POST …/pages/previous: pages behind are read-only once answered; the current page does not move back. */
export async function previousPage(ctx: PlayerContext, lessonId: string, fromPageId: string): Promise<Resource> {
  const lesson = await loadLesson(ctx, lessonId, 'read');
  const l = await loadAll(ctx, lesson);
  const { slot } = nodeOf(l, activePage(l, fromPageId));
  const target = slot.index > 0 ? l.plan.slots[slot.index - 1] : undefined;
  const page = target ? pageOfSlot(l, target) : undefined;
  if (!page) throw conflict('MODEL_NOT_FOUND', 'There is no previous page.');
  return pageDocument(ctx, l, page);
}

// ---------------------------------------------------------------------------------------------
// Hints, clock and keep-alive

/** POST …/pages/current/hints: unlocks the next hint; its cost is taken when the page is graded. */
export async function unlockHint(ctx: PlayerContext, lessonId: string, pageId: string): Promise<{ hints: HintsView }> {
  const lesson = await loadLesson(ctx, lessonId, 'write');
  const l = await loadAll(ctx, lesson);
  const page = activePage(l, pageId);
  const { node } = nodeOf(l, page);
  if (!l.settings.hints) throw conflict('BAD_REQUEST', 'Hints are off for this course.');
  if (node.type === 'multiblock') throw conflict('BAD_REQUEST', 'Choose one of the blocks first.');
  const hints = ctx.cache.hints(await blockOf(ctx, node));
  if (page.hintsUsed >= hints.length) throw conflict('BAD_REQUEST', 'No hint left on this page.');
  const iso = ctx.receivedAt.toISOString();
  // Conditional on the count the learner saw: a double click unlocks (and costs) one hint, not two.
  const res = await writeTx(ctx.db, ctx.kind, (trx) =>
    trx
      .updateTable('lessonPages')
      .set({ hintsUsed: page.hintsUsed + 1, updatedAt: iso })
      .where('id', '=', page.id)
      .where('hintsUsed', '=', page.hintsUsed)
      .where('state', '=', 'ACTIVE')
      .executeTakeFirst(),
  );
  if (Number(res.numUpdatedRows) !== 1) throw conflict('PATCH_IN_PROGRESS', 'A hint is being unlocked already.');
  return { hints: hintsView(hints, page.hintsUsed + 1, l.settings) };
}

/** POST …/pages/current/start: the timed page's clock starts now (server time); idempotent. */
export async function startPage(ctx: PlayerContext, lessonId: string, pageId: string): Promise<Resource> {
  const lesson = await loadLesson(ctx, lessonId, 'write');
  const l = await loadAll(ctx, lesson);
  const page = activePage(l, pageId);
  const { node } = nodeOf(l, page);
  if ((page.timeLimit ?? timeLimitOf(node)) && !page.startedAt && !page.answeredAt) {
    const iso = ctx.receivedAt.toISOString();
    await writeTx(ctx.db, ctx.kind, (trx) =>
      trx
        .updateTable('lessonPages')
        .set({ startedAt: iso, lastSeenAt: iso, updatedAt: iso })
        .where('id', '=', page.id)
        .where('startedAt', 'is', null)
        .execute(),
    );
    const started = await findPage(ctx.db, lessonId, page.id);
    return pageDocument(ctx, started ? withPage(l, started) : l, started ?? page);
  }
  return pageDocument(ctx, l, page);
}

/** POST …/pages/current/ping: adds the server-measured time since the last sign of life (capped). */
export async function ping(ctx: PlayerContext, lessonId: string, pageId: string): Promise<void> {
  const lesson = await loadLesson(ctx, lessonId, 'write');
  const page = await findPage(ctx.db, lessonId, pageId);
  if (!page || page.state === 'ARCHIVED') throw notFound('Page');
  const last = page.lastSeenAt ?? page.openedAt;
  const seconds = elapsedSince(last, ctx.receivedAt);
  const iso = ctx.receivedAt.toISOString();
  await writeTx(ctx.db, ctx.kind, async (trx) => {
    // Conditional on the previous ping's time: two pings at once count the elapsed time once.
    const res = await trx
      .updateTable('lessonPages')
      .set((eb) => ({
        lastSeenAt: iso,
        timeSpent: eb('timeSpent', '+', seconds),
        timeAlive: eb('timeAlive', '+', seconds),
      }))
      .where('id', '=', page.id)
      .where('lastSeenAt', page.lastSeenAt === null ? 'is' : '=', page.lastSeenAt)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) await addTime(trx, lesson, seconds);
  });
}
