/**
 * A cmi5 course's units with their status (decision 0071): the page's block view, shared by every
 * learner through the content cache, gets each AU's status in the page's own registration — the
 * page's learner, never the reader (staff correcting see the learner's). The statements read are
 * the learner's cmi5 defined ones: migration 0034 moves their `u:` stamp with each, so the
 * player's cached read (decision 0068) is built again when a status changes.
 */
import type { BlockView } from '@parcours/domain/entities';
import { readSummary } from '../../content/packages/store';
import { auStatuses } from '../packages/cmi5-record';
import { blockPackageOf, registrationOfPage } from '../packages/launches';
import type { PlayerContext } from './context';
import type { BlockContent } from './content-cache';
import type { LessonRow, PageRow } from './repository';

export async function withUnitStatuses(
  ctx: PlayerContext,
  lesson: Pick<LessonRow, 'contextId' | 'userId'>,
  page: Pick<PageRow, 'id'>,
  content: BlockContent | null,
  view: BlockView | null,
): Promise<BlockView | null> {
  const pkg = view?.content.package;
  if (!view || !pkg?.units?.length || pkg.kind !== 'cmi5' || !content || !ctx.files) return view;
  const stored = blockPackageOf(content.block.content);
  const course = stored ? (await readSummary(ctx.files, lesson.contextId, stored.id))?.cmi5 : null;
  // A package gone from the store: the units are listed without a status rather than a wrong one.
  if (!course) return view;
  const statuses = await auStatuses(
    ctx.db,
    {
      contextId: lesson.contextId,
      userId: lesson.userId,
      registration: registrationOfPage(page.id),
      blockId: content.block.id,
    },
    course,
  );
  const units = pkg.units.map((u, i) => {
    const status = statuses[i];
    return status ? { ...u, status } : u;
  });
  return { ...view, content: { ...view.content, package: { ...pkg, units } } };
}
