import { ApiError } from '../../plugins/errors';
import { ContentCache } from '../lesson-pages/content-cache';
import { recordTincanScore } from '../lesson-pages/service';
import type { TincanScore } from '../lesson-pages/service';
import type { Credential } from './credentials';
import type { LrsOptions } from './resource';
import type { StoredStatement } from './store';

/** ADL verbs by which a module says it is done (xAPI vocabulary). */
export const SCORING_VERBS = new Set([
  'http://adlnet.gov/expapi/verbs/completed',
  'http://adlnet.gov/expapi/verbs/passed',
]);

/**
 * The statement's score in the form the score message accepts, or null when it cannot score a
 * page: `scaled` (a negative one counts as 0, as the one-grade rule clamps), or `raw` with `max`.
 */
export function scoreOf(s: StoredStatement): TincanScore | null {
  const score = s.body.result?.score;
  if (!score) return null;
  if (score.scaled !== undefined) return { scaled: Math.max(0, score.scaled) };
  if (score.raw !== undefined && score.max !== undefined) {
    return { raw: score.raw, max: score.max, ...(score.min !== undefined ? { min: score.min } : {}) };
  }
  return null;
}

/**
 * A module's first completed or passed statement with a score, sent with the credentials of
 * a launch, scores that launch's page exactly as its score message would (recordTincanScore:
 * same one-grade rule, same time limits, once). The statement is a record either way: a page
 * already scored, late or closed keeps its grade and the statement stays stored.
 */
export async function scoreByStatements(
  o: LrsOptions,
  cred: Credential,
  inserted: StoredStatement[],
): Promise<void> {
  const scoring = inserted.find((s) => SCORING_VERBS.has(s.body.verb.id) && scoreOf(s) !== null);
  if (!scoring) return;
  const page = await o.db
    .selectFrom('lessonPages')
    .select('launchToken')
    .where('id', '=', cred.pageId)
    .executeTakeFirst();
  // The launch is cleared once the page is answered: nothing left to score.
  if (!page?.launchToken) return;
  const ctx = {
    db: o.db,
    kind: o.kind,
    contextId: cred.contextId,
    userId: cred.userId,
    receivedAt: o.now,
    // Nothing kept between statements: a module's scoring statement is rare, and content read
    // afresh is never older than what the player shows (its cache follows the content stamp).
    cache: new ContentCache(0),
  };
  try {
    await recordTincanScore(
      ctx,
      cred.lessonId,
      cred.pageId,
      page.launchToken,
      scoreOf(scoring) as TincanScore,
    );
  } catch (err) {
    // Stored is stored: the client is told so, whatever became of the page.
    if (err instanceof ApiError)
      o.request.log.info({ code: err.code, pageId: cred.pageId }, 'statement not scored');
    else o.request.log.error({ err, pageId: cred.pageId }, 'scoring by statement failed');
  }
}
