import type { Resource } from '../../plugins/jsonapi';
import { notFound } from '../scope';
import { elapsedSince } from './clock';
import { activePage, loadAll, loadLesson, nodeOf, withPage } from './context';
import type { PlayerContext } from './context';
import { pageDocument } from './document';
import { addTime, findPage } from './repository';
import { pageLimitOf } from './limits';
import { writeTx } from '../../db/tx';

/** The page clock: starting a timed page and the keep-alive, both measured on the server. */

/** POST …/pages/current/start: the timed page's clock starts now (server time); idempotent. */
export async function startPage(ctx: PlayerContext, lessonId: string, pageId: string): Promise<Resource> {
  const lesson = await loadLesson(ctx, lessonId, 'write');
  const l = await loadAll(ctx, lesson);
  const page = activePage(l, pageId);
  const { node } = nodeOf(l, page);
  // A learner with no time limit (decision 0019) has no clock to start.
  if (pageLimitOf(l.accommodation, page, node) && !page.startedAt && !page.answeredAt) {
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
