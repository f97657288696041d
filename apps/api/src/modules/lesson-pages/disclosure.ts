import type { PageResults } from '@parcours/domain/entities';
import { withoutKey } from '@parcours/domain/exercises/answer-key';
import { parseJson } from '../../db/schema';
import type { BlockContent } from './content-cache';
import { blockOf, nodeOf, retryOpen } from './context';
import type { Loaded, PlayerContext } from './context';
import { pageValues, sheetView } from './datasets';
import { withAnswer } from './repository';
import type { PageRow } from './repository';

/**
 * What of a page's stored answer its learner may see at this moment (decision 0009: the key only
 * once no further attempt can be graded; decision 0042: a parametrised page's computed values
 * only then). One rule, read by the player's page document (document.ts, serializer.ts) and by
 * the data export (modules/privacy, decision 0056), so the export never holds more than the
 * player shows.
 */

/** What pageDocument judges by: an answered page's results (`{}` if unreadable), null before the answer. */
const asShown = (page: PageRow, stored: PageResults | null): Partial<PageResults> | null =>
  page.answeredAt ? (stored ?? {}) : null;

/** The key of an active page shows when it is unanswered (nothing to show) or no retry can be graded. */
export function keyShownToLearner(
  ctx: PlayerContext,
  l: Loaded,
  page: PageRow,
  results: Partial<PageResults> | null,
): boolean {
  return results === null || !retryOpen(ctx, l, page, results);
}

/** The results as shown: whole once the key shows, else without it (the domain's `withoutKey`). */
export function shownResults(stored: PageResults, keyShown: boolean): PageResults {
  return keyShown ? stored : withoutKey(stored);
}

/** The sheet as shown (datasets.ts `sheetView`): the values the block names until the key shows. */
export function shownSheet(
  ctx: PlayerContext,
  content: BlockContent | null,
  page: PageRow,
  keyShown: boolean,
): { datasetComputed: Record<string, number> } {
  const view = content ? ctx.cache.view(content) : null;
  return sheetView(
    // Only a parametrised block's view has value names: other pages skip the solution's parse.
    content && view?.content.datasetNames ? pageValues(ctx.cache.grading(content).solution, page) : {},
    page.answeredAt !== null,
    view?.content.datasetNames,
    keyShown,
  );
}

/**
 * Any attempt of the learner's lesson `l` (the active ones and the ARCHIVED earlier attempts the
 * player no longer serves), as its learner may see it now: its results and sheet. An earlier
 * attempt is the same exercise as the node's live attempt, so it shows its key only when the
 * live attempt is answered and shows its own. A page whose node left the course, or of a lesson
 * that can no longer be loaded (`l` null), shows neither key nor value: nothing says it may.
 */
export async function learnerAnswerView(
  ctx: PlayerContext,
  l: Loaded | null,
  page: PageRow & Pick<Required<PageRow>, 'results'>,
): Promise<{ results: PageResults | null; sheet: { datasetComputed: Record<string, number> } }> {
  const stored = page.answeredAt ? parseJson<PageResults | null>(page.results, null) : null;
  const { keyShown, content } = await judged(ctx, l, page, stored);
  return {
    results: stored ? shownResults(stored, keyShown) : null,
    sheet: shownSheet(ctx, content, page, keyShown),
  };
}

/** Whether `page`'s key shows now, and its block (null: a multiblock chooser, or nothing to judge by). */
async function judged(
  ctx: PlayerContext,
  l: Loaded | null,
  page: PageRow,
  stored: PageResults | null,
): Promise<{ keyShown: boolean; content: BlockContent | null }> {
  const withheld = { keyShown: false, content: null };
  if (!l) return withheld;
  let content: BlockContent | null;
  try {
    const { node } = nodeOf(l, page);
    content = node.type === 'multiblock' ? null : await blockOf(ctx, node);
  } catch {
    return withheld; // The node or its block left the course.
  }
  if (page.state !== 'ARCHIVED')
    return { keyShown: keyShownToLearner(ctx, l, page, asShown(page, stored)), content };
  // A live attempt not answered yet can still be graded: the earlier one keeps its key.
  const live = l.pages.find((p) => p.nodeId === page.nodeId);
  if (!live?.answeredAt) return { keyShown: false, content };
  const liveStored = parseJson<PageResults | null>((await withAnswer(ctx.db, live)).results, null);
  return { keyShown: keyShownToLearner(ctx, l, live, asShown(live, liveStored)), content };
}
