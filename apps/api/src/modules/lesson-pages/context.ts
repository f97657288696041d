import type { TimeWindow } from '@parcours/domain/class-timing';
import type { GradingSettings } from '@parcours/domain/exercises/grade-page';
import { accommodationOf } from '@parcours/domain/time-accommodation';
import type { TimeAccommodation } from '@parcours/domain/time-accommodation';
import type { PageResults } from '@parcours/domain/entities';
import type { Db, DbKind } from '../../db/db';
import type { FileStore } from '../../files/store';
import { ApiError } from '../../plugins/errors';
import { syncLesson } from '../progression/on-lesson-completed';
import { applyProgression } from '../progression/rules';
import { notFound } from '../scope';
import { isLate } from './clock';
import type { BlockContent, ContentCache } from './content-cache';
import type { LessonPlan, PlanNode, Slot } from './plan';
import { lessonDeadlineOf } from './limits';
import { activePages, findOwnLesson } from './repository';
import type { AccommodationColumns, LessonRow, OwnLessonRow, PageRow } from './repository';
import { writeTx } from '../../db/tx';
import { refuseIfWindowClosed } from './windows';

/**
 * What every player call shares (docs/api.md "Lesson player"): the request's context, the
 * learner's lesson loaded and judged open, and lookups in its plan. The server decides which
 * page is current, grades, applies hint costs and judges lateness and windows with the time the
 * request was received (`receivedAt`). Every write runs in one transaction; the one-grade and
 * one-choice guarantees are conditional UPDATEs and unique indexes, not checks in code, so they
 * hold across tabs and across server processes (decision 0009).
 */

export interface PlayerContext {
  db: Db;
  kind: DbKind;
  contextId: string;
  userId: string;
  /** Server time at which the request arrived: the only clock lateness is judged by. */
  receivedAt: Date;
  cache: ContentCache;
  /** Where packages' summaries are: a cmi5 course's AU statuses need it (decision 0071). */
  files?: FileStore | null;
}

export interface Loaded {
  lesson: LessonRow;
  plan: LessonPlan;
  pages: PageRow[];
  settings: GradingSettings;
  /** The learner's time accommodation in this class (decision 0019), applied to every limit. */
  accommodation: TimeAccommodation;
  /**
   * Loaded through the progression rules (the player's read, `loadForOpen`): until when (ms) they
   * would show the lesson the same without a write. Absent: not judged by them.
   */
  rulesValidUntil?: number;
}

const CLOSED_STATES = new Set(['LOCKED', 'HIDDEN', 'EXPIRED']);

export type ConflictCode =
  | 'INVALID_INPUTS'
  | 'RETRY_RESTRICT'
  | 'PATCH_IN_PROGRESS'
  | 'LESSON_PAGE_SKIPPED'
  | 'LESSON_SKIPPED'
  | 'NO_LESSON_PAGE_AVAILABLE'
  | 'BAD_REQUEST'
  | 'MODEL_NOT_FOUND';

export const conflict = (code: ConflictCode, detail: string) => new ApiError(409, code, detail);

/**
 * How much of the lesson's clock a call is judged by:
 * - `read`: reading a reached page (correction mode), always allowed on an open lesson;
 * - `navigate`: moving back (previous) — the class and class-program windows;
 * - `write`: anything that may grade, unlock, start or move forward — windows and the lesson's
 *   own time limit.
 */
export type Access = 'read' | 'navigate' | 'write';

/**
 * The learner's own lesson (another learner's: 404), open (LOCKED/HIDDEN/EXPIRED: 403). For
 * `navigate` and `write`, a closed window or a lesson time limit that is over is recorded first
 * (EXPIRED, SKIPPED), then the call is refused with LESSON_SKIPPED.
 * `sync`: apply the progression rules first (the player's reads; windows included).
 */
export async function loadLesson(
  ctx: PlayerContext,
  lessonId: string,
  access: Access,
  sync = false,
): Promise<OwnLessonRow> {
  const found = await findOwnLesson(ctx.db, ctx.contextId, ctx.userId, lessonId);
  if (!found) throw notFound('Lesson');
  if (sync) return (await judgeSynced(ctx, found, access)).lesson;
  if (CLOSED_STATES.has(found.state)) throw new ApiError(403, 'Forbidden', 'This lesson is not open.');
  if (access !== 'read') await refuseIfWindowClosed(ctx, found);
  if (access === 'write') await refuseIfLessonTimeIsUp(ctx, found);
  return found;
}

/**
 * `loadLesson(…, access, true)` for a lesson already read: the progression rules applied first
 * (issue 4: on opening, windows and time limits are applied before the state is judged), then
 * the closed states and, for a write, the lesson's own time limit. With the lesson, until when
 * the rules would show it the same (`syncLesson`).
 */
export async function judgeSynced(
  ctx: PlayerContext,
  found: OwnLessonRow,
  access: Access,
): Promise<{ lesson: OwnLessonRow; validUntil: number }> {
  const synced = await syncLesson(ctx.db, ctx.kind, found, ctx.receivedAt, (ids) =>
    ctx.cache.programContexts(ctx.db, ids),
  );
  const lesson: OwnLessonRow = {
    ...synced.lesson,
    timeFactor: found.timeFactor,
    noTimeLimit: found.noTimeLimit,
  };
  if (CLOSED_STATES.has(lesson.state)) throw new ApiError(403, 'Forbidden', 'This lesson is not open.');
  if (access === 'write') await refuseIfLessonTimeIsUp(ctx, lesson);
  return { lesson, validUntil: synced.validUntil };
}

async function refuseIfLessonTimeIsUp(ctx: PlayerContext, lesson: OwnLessonRow): Promise<void> {
  if (lesson.state === 'SKIPPED') throw conflict('LESSON_SKIPPED', 'The time of this lesson is up.');
  if (!isLate(ctx.receivedAt, lessonDeadlineOf(accommodationOf(lesson), lesson))) return;
  const iso = ctx.receivedAt.toISOString();
  // Recorded before refusing, so the dashboard shows the lesson as ended (docs/product.md §4 lesson state),
  // and in the same transaction the program's rules open what follows it, as a completion does.
  await writeTx(ctx.db, ctx.kind, async (trx) => {
    const res = await trx
      .updateTable('lessons')
      .set({ state: 'SKIPPED', endedAt: iso, updatedAt: iso })
      .where('id', '=', lesson.id)
      .where('state', '!=', 'SKIPPED')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1 && lesson.classProgramId) {
      await applyProgression(
        trx,
        [{ userId: lesson.userId, classProgramId: lesson.classProgramId }],
        ctx.receivedAt,
      );
    }
  });
  throw conflict('LESSON_SKIPPED', 'The time of this lesson is up.');
}

/**
 * The lesson's plan and pages. The accommodation comes with a lesson read by `loadLesson`; a
 * lesson read otherwise (staff correcting it) has none unless given.
 */
export async function loadAll(
  ctx: PlayerContext,
  lesson: LessonRow & Partial<AccommodationColumns>,
  accommodation: TimeAccommodation = accommodationOf(lesson),
): Promise<Loaded> {
  const [course, pages] = await Promise.all([
    ctx.cache.course(ctx.db, lesson.courseId),
    activePages(ctx.db, lesson.id),
  ]);
  return {
    lesson,
    plan: ctx.cache.plan(course, lesson.enabledSectionIds),
    pages,
    settings: ctx.cache.gradingSettings(course),
    accommodation,
  };
}

/**
 * The judgement of `loadLesson(…, 'write')` for a lesson read together with its window and its
 * pages in one statement (lesson-state.ts, decision 0016): closed states, the window, the
 * lesson's own time limit.
 */
export async function judgeForWrite(
  ctx: PlayerContext,
  lesson: OwnLessonRow,
  window: TimeWindow,
): Promise<void> {
  if (CLOSED_STATES.has(lesson.state)) throw new ApiError(403, 'Forbidden', 'This lesson is not open.');
  await refuseIfWindowClosed(ctx, lesson, window);
  await refuseIfLessonTimeIsUp(ctx, lesson);
}

/** Index of the furthest slot reached, -1 before the first opening. */
export function frontierOf(l: Loaded): number {
  let max = -1;
  for (const p of l.pages) max = Math.max(max, l.plan.slotOfNode(p.nodeId)?.index ?? -1);
  return max;
}

/** The child of a multiblock slot that has a page (the learner's one choice), if any. */
export function chosenChild(l: Loaded, slot: Slot): PlanNode | undefined {
  return slot.children.find((c) => l.pages.some((p) => p.nodeId === c.id));
}

/** The active page of a slot: a block's page; for a multiblock, the chosen child's page, else the chooser. */
export function pageOfSlot(l: Loaded, slot: Slot): PageRow | undefined {
  const chosen = slot.node.type === 'multiblock' ? chosenChild(l, slot) : undefined;
  return l.pages.find((p) => p.nodeId === (chosen ?? slot.node).id);
}

/** The multiblock a node's page is the choice of (stored as `choice_of`), or null. */
export function choiceOf(slot: Slot, node: PlanNode): string | null {
  return slot.node.type === 'multiblock' && node.id !== slot.node.id ? slot.node.id : null;
}

export function nodeOf(l: Loaded, page: PageRow): { node: PlanNode; slot: Slot } {
  const node = l.plan.nodes.get(page.nodeId);
  const slot = l.plan.slotOfNode(page.nodeId);
  // The course changed under the page (node removed, section disabled): it is no longer part of the lesson.
  if (!node || !slot) throw notFound('Page');
  return { node, slot };
}

export function activePage(l: Loaded, pageId: string): PageRow {
  const page = l.pages.find((p) => p.id === pageId);
  if (!page) throw notFound('Page');
  return page;
}

export async function blockOf(ctx: PlayerContext, node: PlanNode): Promise<BlockContent> {
  const content = node.blockId ? await ctx.cache.block(ctx.db, ctx.contextId, node.blockId) : null;
  if (!content) throw notFound('Block');
  return content;
}

/** The loaded state after a write, without reading back what this request just wrote. */
export function withPage(l: Loaded, page: PageRow, lesson: LessonRow = l.lesson): Loaded {
  return {
    ...l,
    lesson,
    pages: [...l.pages.filter((p) => p.nodeId !== page.nodeId), ...(page.state === 'ARCHIVED' ? [] : [page])],
  };
}

/**
 * Whether another attempt of this answered page can still be graded: the course type allows
 * retries, the grade left something to get right, the page is the active attempt, and the
 * lesson still takes writes (not ended by its time limit, nor closed). `retryPage` and the
 * correction's key (decision 0009) both follow it, so the key shows exactly when no retry can.
 */
export function retryOpen(
  ctx: PlayerContext,
  l: Loaded,
  page: PageRow,
  results: Partial<PageResults>,
): boolean {
  if (!l.settings.retry || results.retryAllowed !== true || page.state !== 'ACTIVE') return false;
  if (l.lesson.state === 'SKIPPED' || CLOSED_STATES.has(l.lesson.state)) return false;
  return !isLate(ctx.receivedAt, lessonDeadlineOf(l.accommodation, l.lesson));
}
