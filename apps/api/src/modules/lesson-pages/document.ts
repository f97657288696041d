import { randomBytes } from 'node:crypto';
import type { PageResults } from '@parcours/domain/entities';
import { hintsView } from '@parcours/domain/exercises/grade-page';
import type { Db } from '../../db/db';
import { prepared } from '../../db/prepared';
import { parseJson } from '../../db/schema';
import type { Resource } from '../../plugins/jsonapi';
import { deadlineOf, pageClockLimit, remainingSeconds } from './clock';
import { blockOf, nodeOf } from './context';
import { keyShownToLearner, shownSheet } from './disclosure';
import { lessonDeadlineOf, lessonLimitOf, pageLimitOf } from './limits';
import type { Loaded, PlayerContext } from './context';
import type { BlockContent } from './content-cache';
import { withAnswer } from './repository';
import type { PageRow } from './repository';
import { pageResource } from './serializer';
import { withUnitStatuses } from './package-units';
import { writeTx } from '../../db/tx';
import { scoringOf } from '../lessons/serializer';

/** 256 random bits, URL-safe: a launch cannot be guessed. */
const newLaunch = () => randomBytes(32).toString('base64url');

const issueLaunchQuery = prepared((db: Db, pageId: string, token: string) =>
  db
    .updateTable('lessonPages')
    .set({ launchToken: token })
    .where('id', '=', pageId)
    .where('launchToken', 'is', null)
    .where('answeredAt', 'is', null),
);
const launchQuery = prepared((db: Db, pageId: string) =>
  db.selectFrom('lessonPages').select('launchToken').where('id', '=', pageId),
);

/**
 * Issue 10 finding 5: serving an unanswered learning-module page issues its launch, once per
 * page (a reload or a second tab gets the same one); the module's score is accepted only with
 * it (`recordTincanScore`). Null for every other page.
 */
async function launchOf(
  ctx: PlayerContext,
  page: PageRow,
  content: BlockContent | null,
): Promise<string | null> {
  if (content?.block.type !== 'tincan' || page.answeredAt || page.state !== 'ACTIVE') return null;
  if (page.launchToken) return page.launchToken;
  await writeTx(ctx.db, ctx.kind, (trx) => issueLaunchQuery.run(trx, page.id, newLaunch()));
  // Read back: another request may have issued it first; everyone gets that one.
  return (await launchQuery.first(ctx.db, page.id))?.launchToken ?? null;
}

/**
 * How a page is shown: to its learner, or read by staff correcting it (issue 13), who see the
 * expected answers and never start anything (no module launch is issued for them).
 */
export type PageAudience = 'learner' | 'staff';

/** A page document as the player's read answers it (decision 0068). */
export interface PageView {
  resource: Resource;
  /** Who it was built for: only the learner's own read of their page is kept (lib/answer-cache.ts). */
  audience: PageAudience;
  /**
   * The first instant (ms) at which the same read could answer differently by the clock alone:
   * its countdowns, the lesson's lateness, and the progression rules when they judged the lesson.
   */
  validUntil: number;
}

/** The page as the learner sees it (docs/api.md "Lesson player"). */
export async function pageDocument(
  ctx: PlayerContext,
  l: Loaded,
  shown: PageRow,
  audience: PageAudience = 'learner',
): Promise<Resource> {
  return (await pageView(ctx, l, shown, audience)).resource;
}

/** `pageDocument`, with whom it was built for and until when its clock leaves it as it is. */
export async function pageView(
  ctx: PlayerContext,
  l: Loaded,
  shown: PageRow,
  audience: PageAudience = 'learner',
): Promise<PageView> {
  const { node, slot } = nodeOf(l, shown);
  // An answered page shows its answer and correction: read them for this page only.
  const page = shown.answeredAt ? await withAnswer(ctx.db, shown) : shown;
  const content = node.type === 'multiblock' ? null : await blockOf(ctx, node);
  const done = new Set(l.pages.filter((p) => p.progress === 'COMPLETED').map((p) => p.nodeId));
  // Decision 0019: the learner's own limits, their accommodation applied, are what they see.
  const timeLimit = pageLimitOf(l.accommodation, page, node);
  // Parsed once here for both uses (retryOpen and the document): twice was measurable per answer.
  const stored = page.answeredAt ? parseJson<PageResults | null>(page.results, null) : null;
  const results: Partial<PageResults> | null = page.answeredAt ? (stored ?? {}) : null;
  // Finding 2: the expected answers only once no further attempt of this page can be graded.
  const keyShown = audience === 'staff' || keyShownToLearner(ctx, l, page, results);
  const view = await withUnitStatuses(ctx, l.lesson, page, content, content ? ctx.cache.view(content) : null);
  const pageDeadline = page.answeredAt ? null : deadlineOf(page.startedAt, timeLimit);
  const lessonDeadline = lessonDeadlineOf(l.accommodation, l.lesson);
  const resource = pageResource({
    page,
    stored,
    node,
    block: view,
    children:
      node.type === 'multiblock'
        ? slot.children.map((c) => ({ nodeId: c.id, title: c.title, done: done.has(c.id) }))
        : [],
    index: slot.index,
    count: l.plan.slots.length,
    current: l.lesson.currentNodeId === page.nodeId,
    hints: content
      ? hintsView(ctx.cache.hints(content), page.hintsUsed, l.settings)
      : hintsView([], 0, l.settings),
    settings: l.settings,
    // As GET /lessons serves it: a lesson stored with `{}` is 0 of 0, never a missing `global`.
    lessonScoring: scoringOf(l.lesson.scoring),
    timeLimit,
    remainingSeconds: page.answeredAt ? null : remainingSeconds(ctx.receivedAt, pageDeadline),
    lessonTimeLimit: lessonLimitOf(l.accommodation, l.lesson),
    lessonRemainingSeconds: remainingSeconds(ctx.receivedAt, lessonDeadline),
    keyShown,
    tincanLaunch: audience === 'staff' ? null : await launchOf(ctx, page, content),
    sheet: shownSheet(ctx, content, page, keyShown),
  });
  const validUntil = Math.min(
    l.rulesValidUntil ?? Infinity,
    pageClockLimit(ctx.receivedAt, pageDeadline, lessonDeadline),
  );
  return { resource, audience, validUntil };
}
