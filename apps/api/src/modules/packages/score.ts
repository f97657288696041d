import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbKind } from '../../db/db';
import { ApiError } from '../../plugins/errors';
import { ContentCache } from '../lesson-pages/content-cache';
import { recordTincanScore } from '../lesson-pages/service';

/**
 * A package page scored by what its runtime reported (issue 31): exactly as a learning module's
 * score (recordTincanScore: the page is worth ROW_POINTS, minus unlocked hints, recorded once
 * within the page's time, with the page's launch). False when nothing was recorded — the page
 * was answered already, closed, or late; the runtime's data stay saved either way.
 */
export async function scorePage(
  d: { db: Db; kind: DbKind; now: Date; log: FastifyBaseLogger },
  launch: { contextId: string; userId: string; lessonId: string; pageId: string },
  fraction: number,
): Promise<boolean> {
  const page = await d.db
    .selectFrom('lessonPages')
    .select('launchToken')
    .where('id', '=', launch.pageId)
    .executeTakeFirst();
  // The page's launch is cleared once it is answered: nothing left to score.
  if (!page?.launchToken) return false;
  const ctx = {
    db: d.db,
    kind: d.kind,
    contextId: launch.contextId,
    userId: launch.userId,
    receivedAt: d.now,
    // Read afresh: a package scores a page once; the content is never older than what the player shows.
    cache: new ContentCache(0),
  };
  try {
    await recordTincanScore(ctx, launch.lessonId, launch.pageId, page.launchToken, { scaled: fraction });
    return true;
  } catch (err) {
    if (err instanceof ApiError)
      d.log.info({ code: err.code, pageId: launch.pageId }, 'package result not scored');
    else d.log.error({ err, pageId: launch.pageId }, 'scoring a package page failed');
    return false;
  }
}
