import { timingSafeEqual } from 'node:crypto';
import type { PageResults } from '@parcours/domain/entities';
import { ROW_POINTS, hintCost, hintsView } from '@parcours/domain/exercises/grade-page';
import { ApiError } from '../../plugins/errors';
import type { Resource } from '../../plugins/jsonapi';
import { commitResults, pageToRecord, refuseIfLate } from './answer';
import { activePage, blockOf, conflict } from './context';
import type { PlayerContext } from './context';
import { pageDocument } from './document';

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

/** Constant-time comparison: a wrong launch tells nothing about the right one. */
function sameLaunch(issued: string | null, given: string): boolean {
  if (!issued) return false;
  const a = Buffer.from(issued);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * POST …/pages/custom-tincan-score: a tincan page scored by its learning module. Accepted only
 * with the launch the server issued when it served this page to this learner (finding 5,
 * decision 0009), once, within the page's time. The page is worth ROW_POINTS; the module's
 * fraction of it (minus the costs of unlocked hints, as for any page) is recorded once, like an
 * answer (same transaction, same one-grade guarantee, also conditional on the launch).
 */
export async function recordTincanScore(
  ctx: PlayerContext,
  lessonId: string,
  pageId: string,
  launch: string,
  score: TincanScore,
): Promise<Resource> {
  const { l, page, node } = await pageToRecord(ctx, lessonId, pageId);
  if (node.type === 'multiblock') throw conflict('BAD_REQUEST', 'This page is not a learning module.');
  const content = await blockOf(ctx, node);
  if (content.block.type !== 'tincan') throw conflict('BAD_REQUEST', 'This page is not a learning module.');
  if (page.answeredAt)
    throw conflict('INVALID_INPUTS', 'This page was already answered; its score is recorded.');
  if (!sameLaunch(page.launchToken, launch)) {
    throw new ApiError(403, 'Forbidden', 'This score does not come from a launch of this module.', {
      pointer: '/launch',
    });
  }

  await refuseIfLate(ctx, l, page, node, content, 'score');
  const f = tincanFraction(score);
  const hints = ctx.cache.hints(content);
  const cost = l.settings.hints
    ? hintCost(
        hints.map((h) => h.cost),
        page.hintsUsed,
      )
    : 0;
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
  const after = await commitResults(ctx, l, page, [], results, launch);
  if (!after) throw conflict('PATCH_IN_PROGRESS', 'Another submission of this page was recorded first.');
  return pageDocument(ctx, after, activePage(after, page.id));
}
