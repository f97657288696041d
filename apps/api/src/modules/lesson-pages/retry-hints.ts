import type { HintsView, PageResults } from '@parcours/domain/entities';
import { hintsView } from '@parcours/domain/exercises/grade-page';
import { parseJson } from '../../db/schema';
import type { Resource } from '../../plugins/jsonapi';
import { afterPageCompleted } from '../progression/service';
import { notFound } from '../scope';
import {
  activePage,
  blockOf,
  choiceOf,
  conflict,
  loadAll,
  loadLesson,
  nodeOf,
  retryOpen,
  withPage,
} from './context';
import type { PlayerContext } from './context';
import { newSheet } from './datasets';
import { pageDocument } from './document';
import { findPage, insertPageIfMissing, withAnswer } from './repository';
import { timeLimitOf } from './limits';
import { writeTx } from '../../db/tx';

/** A second chance at a page (retry) and help on it (hints). */

/** POST …/pages/current/retry: archives the answered page and opens a new attempt (course type `retry`). */
export async function retryPage(ctx: PlayerContext, lessonId: string, pageId: string): Promise<Resource> {
  const lesson = await loadLesson(ctx, lessonId, 'write');
  const l = await loadAll(ctx, lesson);
  const page = l.pages.find((p) => p.id === pageId);
  if (!page) {
    // Already replaced by a retry (another tab's, say).
    if (await findPage(ctx.db, lessonId, pageId))
      throw conflict('INVALID_INPUTS', 'This attempt was already retried.');
    throw notFound('Page');
  }
  const { node, slot } = nodeOf(l, page);
  if (!page.answeredAt) throw conflict('BAD_REQUEST', 'This page is not answered yet.');
  const results = parseJson<Partial<PageResults>>((await withAnswer(ctx.db, page)).results, {});
  // The same rule decides whether the correction may show the key (document.ts).
  if (!retryOpen(ctx, l, page, results))
    throw conflict('RETRY_RESTRICT', 'This page cannot be answered again.');
  const iso = ctx.receivedAt.toISOString();
  // A retry draws new values: the learner practises the method, not one set of numbers.
  const sheet = newSheet(ctx.cache, node.type === 'multiblock' ? null : await blockOf(ctx, node));
  const { fresh, lesson: updated } = await writeTx(ctx.db, ctx.kind, async (trx) => {
    const archived = await trx
      .updateTable('lessonPages')
      .set({ state: 'ARCHIVED', updatedAt: iso })
      .where('id', '=', page.id)
      .where('state', '=', 'ACTIVE')
      .executeTakeFirst();
    if (Number(archived.numUpdatedRows) !== 1)
      throw conflict('PATCH_IN_PROGRESS', 'This page is being retried already.');
    const fresh = await insertPageIfMissing(trx, {
      lessonId,
      nodeId: node.id,
      sectionId: slot.sectionId,
      position: slot.index,
      attempt: page.attempt + 1,
      timeLimit: timeLimitOf(node),
      choiceOf: choiceOf(slot, node),
      now: iso,
      sheet,
    });
    if (!fresh) throw conflict('PATCH_IN_PROGRESS', 'This page is being retried already.');
    return { fresh, lesson: await afterPageCompleted(trx, lesson, ctx.receivedAt, l.plan) };
  });
  return pageDocument(ctx, withPage(l, fresh, updated), fresh);
}

/** POST …/pages/current/hints: unlocks the next hint; its cost is taken when the page is graded. */
export async function unlockHint(
  ctx: PlayerContext,
  lessonId: string,
  pageId: string,
): Promise<{ hints: HintsView }> {
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
  if (Number(res.numUpdatedRows) !== 1)
    throw conflict('PATCH_IN_PROGRESS', 'A hint is being unlocked already.');
  return { hints: hintsView(hints, page.hintsUsed + 1, l.settings) };
}
