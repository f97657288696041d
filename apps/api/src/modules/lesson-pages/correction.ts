import { ApiError } from '../../plugins/errors';
import { notFound } from '../scope';
import type { PlayerContext } from './context';
import { activePage, loadAll } from './context';
import { pageView } from './document';
import type { PageView } from './document';
import { openPage } from './navigation';

/**
 * docs/product.md §2/§6 correction (issue 13): `GET …/pages/current?pageId=` for a page of someone else's
 * lesson. An administrator of the tenant or a TEACHER of the lesson's class reads the learner's
 * page with its answers and the expected ones; it is a pure read: the lesson is not synced, no
 * page is opened or timed, no module launch is issued. Anyone else gets the 404 a foreign lesson
 * always gets. The learner's own pages go through the player as before.
 */
export async function readPage(
  ctx: PlayerContext,
  isAdmin: boolean,
  lessonId: string,
  pageId: string,
): Promise<PageView> {
  const lesson = await ctx.db
    .selectFrom('lessons')
    .selectAll()
    .where('id', '=', lessonId)
    .where('contextId', '=', ctx.contextId)
    .executeTakeFirst();
  if (!lesson || lesson.userId === ctx.userId) return openPage(ctx, lessonId, { pageId });
  if (!isAdmin) {
    const teacher = await ctx.db
      .selectFrom('classUsers')
      .select('id')
      .where('classId', '=', lesson.classId)
      .where('userId', '=', ctx.userId)
      .where('role', '=', 'TEACHER')
      .executeTakeFirst();
    if (!teacher) throw notFound('Lesson');
  }
  const l = await loadAll(ctx, lesson);
  const page = activePage(l, pageId);
  if (!page.answeredAt) {
    throw new ApiError(404, 'MODEL_NOT_FOUND', 'This page has no answer to correct yet.', {
      parameter: 'pageId',
    });
  }
  return pageView(ctx, l, page, 'staff');
}
