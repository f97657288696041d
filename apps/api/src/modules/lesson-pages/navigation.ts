import type { Db } from '../../db/db';
import { prepared } from '../../db/prepared';
import { ApiError } from '../../plugins/errors';
import type { Resource } from '../../plugins/jsonapi';
import { commitGrade } from './answer';
import { newSheet } from './datasets';
import { isLate } from './clock';
import {
  activePage,
  blockOf,
  choiceOf,
  chosenChild,
  conflict,
  frontierOf,
  loadAll,
  loadLesson,
  nodeOf,
  pageOfSlot,
  withPage,
} from './context';
import type { Loaded, PlayerContext } from './context';
import { pageDocument, pageView } from './document';
import type { PageView } from './document';
import { loadForOpen, loadForWrite } from './lesson-state';
import { pageDeadlineOf } from './limits';
import { nextShownSlot } from './plan';
import type { PlanNode, Slot } from './plan';
import { insertPageIfMissing, lastAttempt, reachPagePg } from './repository';
import type { LessonRow, PageRow } from './repository';
import { timeLimitOf } from './limits';
import { writeTx } from '../../db/tx';

/** Reaching pages and moving between them: GET current, choose, next, previous. */

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
    .set((eb) => ({
      startedAt: eb.fn.coalesce('startedAt', eb.val(now)),
      progress: eb.fn.coalesce('progress', eb.val('ONGOING')),
      updatedAt: now,
    }))
    .where('id', '=', lessonId),
);

const anotherChoice = () => conflict('INVALID_INPUTS', 'Another block of this choice was already chosen.');

/** Creates the page of a slot (or a multiblock's chosen child) and moves `currentNodeId` forward, never back. */
async function reach(
  ctx: PlayerContext,
  l: Loaded,
  slot: Slot,
  node: PlanNode = slot.node,
): Promise<PageView> {
  const iso = ctx.receivedAt.toISOString();
  const advance = slot.index >= frontierOf(l);
  const sheet = newSheet(ctx.cache, node.type === 'multiblock' ? null : await blockOf(ctx, node));
  const fields = {
    sheet,
    lessonId: l.lesson.id,
    nodeId: node.id,
    sectionId: slot.sectionId,
    position: slot.index,
    timeLimit: timeLimitOf(node),
    choiceOf: choiceOf(slot, node),
    now: iso,
  };
  // PostgreSQL: one statement (decision 0025); when it inserts nothing, the transaction below decides.
  const fast = ctx.kind === 'postgres' ? await reachPagePg(ctx.db, { ...fields, advance }) : undefined;
  const page =
    fast ??
    (await writeTx(ctx.db, ctx.kind, async (trx) => {
      const { attempt } = await lastAttempt(trx, l.lesson.id, node.id);
      const page = await insertPageIfMissing(trx, { ...fields, attempt: attempt + 1 });
      // Only a multiblock's second choice finds no page: the database kept the first one.
      if (!page) throw anotherChoice();
      if (advance) await reachForward.run(trx, l.lesson.id, node.id, iso);
      else await reachBehind.run(trx, l.lesson.id, iso);
      return page;
    }));
  const lesson: LessonRow = {
    ...l.lesson,
    currentNodeId: advance ? node.id : l.lesson.currentNodeId,
    startedAt: l.lesson.startedAt ?? iso,
    progress: l.lesson.progress ?? 'ONGOING',
  };
  return pageView(ctx, withPage(l, page, lesson), page);
}

export interface OpenOptions {
  pageId?: string | undefined;
  section?: string | undefined;
}

/** GET …/pages/current: the current page (created on first open), a reached page, or a section's first page. */
export async function openPage(ctx: PlayerContext, lessonId: string, o: OpenOptions): Promise<PageView> {
  // Reading a reached page (correction mode) is always allowed; anything that may move the learner is a write.
  const l = await loadForOpen(ctx, lessonId, o.pageId ? 'read' : 'write');
  const { lesson } = l;
  if (o.pageId) return pageView(ctx, l, activePage(l, o.pageId));
  if (l.plan.slots.length === 0) throw conflict('NO_LESSON_PAGE_AVAILABLE', 'This lesson has no page.');

  let slot: Slot;
  if (o.section) {
    if (!l.plan.sections.includes(o.section))
      throw new ApiError(404, 'MODEL_NOT_FOUND', 'Section not found.', { parameter: 'section' });
    const first = l.plan.slots.find((s) => s.sectionId === o.section);
    if (!first) throw conflict('NO_LESSON_PAGE_AVAILABLE', 'This section has no page.');
    // Order is the server's: a section opens only once the learner got there.
    if (first.index > Math.max(frontierOf(l), 0))
      throw new ApiError(403, 'Forbidden', 'This section is not reached yet.', { parameter: 'section' });
    slot = first;
  } else {
    if (lesson.progress === 'COMPLETED')
      throw conflict('NO_LESSON_PAGE_AVAILABLE', 'Every page of this lesson is done.');
    const current = lesson.currentNodeId ? l.plan.slotOfNode(lesson.currentNodeId) : undefined;
    const frontier = frontierOf(l);
    // The first opening may land on a first page passed over by its conditions (decision 0051).
    slot = current ?? nextShownSlot(l.plan, l.pages, Math.max(frontier, 0), 1) ?? l.plan.slots[0]!;
    const chosen = lesson.currentNodeId ? l.pages.find((p) => p.nodeId === lesson.currentNodeId) : undefined;
    if (chosen && current) return pageView(ctx, l, chosen);
  }
  const existing = pageOfSlot(l, slot);
  if (existing) return pageView(ctx, l, existing);
  return reach(ctx, l, slot);
}

/**
 * POST …/pages/current/choose: a multiblock's child block, chosen by the learner, once (finding
 * 3): the chosen child again answers its page; another child is refused, in code here and, for
 * two requests at once, by the unique index on `choice_of` (reach).
 */
export async function choosePage(
  ctx: PlayerContext,
  lessonId: string,
  pageId: string,
  nodeId: string,
): Promise<Resource> {
  const lesson = await loadLesson(ctx, lessonId, 'write');
  const l = await loadAll(ctx, lesson);
  const page = activePage(l, pageId);
  const { node, slot } = nodeOf(l, page);
  if (node.type !== 'multiblock') throw conflict('BAD_REQUEST', 'This page offers no choice.');
  const child = slot.children.find((c) => c.id === nodeId);
  if (!child)
    throw new ApiError(404, 'MODEL_NOT_FOUND', 'No such block in this choice.', { pointer: '/nodeId' });
  const chosen = chosenChild(l, slot);
  if (chosen && chosen.id !== child.id) throw anotherChoice();
  const existing = l.pages.find((p) => p.nodeId === child.id);
  if (existing) return pageDocument(ctx, l, existing);
  return (await reach(ctx, l, slot, child)).resource;
}

/** A page left unanswered: slides and tincan close with an empty answer; an exercise whose time ran out is recorded as skipped. */
async function closeBeforeLeaving(
  ctx: PlayerContext,
  l: Loaded,
  page: PageRow,
  node: PlanNode,
): Promise<Loaded> {
  if (node.type === 'multiblock') throw conflict('BAD_REQUEST', 'Choose one of the blocks first.');
  const content = await blockOf(ctx, node);
  const late = isLate(ctx.receivedAt, pageDeadlineOf(l.accommodation, page, node));
  if (content.block.type !== 'exercice' || late) {
    // null: another request closed it meanwhile, which is just as good for moving on.
    return (
      (await commitGrade(ctx, l, {
        page,
        content,
        answers: [],
        skipped: content.block.type === 'exercice',
      })) ?? (await loadAll(ctx, l.lesson, l.accommodation))
    );
  }
  throw conflict('BAD_REQUEST', 'Answer this page first (an empty answer is accepted).');
}

/** POST …/pages/next */
export async function nextPage(ctx: PlayerContext, lessonId: string, fromPageId: string): Promise<Resource> {
  // The lesson, its window and its pages in one statement, judged as loadLesson(…, 'write') does.
  let l = await loadForWrite(ctx, lessonId);
  const from = activePage(l, fromPageId);
  const { node, slot } = nodeOf(l, from);
  if (from.progress !== 'COMPLETED') l = await closeBeforeLeaving(ctx, l, from, node);
  // Pages whose conditions do not hold, given the grades so far, are passed over (decision 0051).
  const target = nextShownSlot(l.plan, l.pages, slot.index + 1, 1);
  if (!target) throw conflict('NO_LESSON_PAGE_AVAILABLE', 'This was the last page of the lesson.');
  const existing = pageOfSlot(l, target);
  return existing ? pageDocument(ctx, l, existing) : (await reach(ctx, l, target)).resource;
}

/** POST …/pages/previous: pages behind are read-only once answered; the current page does not move back. */
export async function previousPage(
  ctx: PlayerContext,
  lessonId: string,
  fromPageId: string,
): Promise<Resource> {
  const lesson = await loadLesson(ctx, lessonId, 'navigate');
  const l = await loadAll(ctx, lesson);
  const { slot } = nodeOf(l, activePage(l, fromPageId));
  const target = nextShownSlot(l.plan, l.pages, slot.index - 1, -1);
  const page = target ? pageOfSlot(l, target) : undefined;
  if (!page) throw conflict('MODEL_NOT_FOUND', 'There is no previous page.');
  return pageDocument(ctx, l, page);
}
