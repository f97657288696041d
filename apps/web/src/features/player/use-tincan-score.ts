/**
 * A tincan page's score (docs/product.md §4 tincan): the module reports it, the server records it
 * once (page mode only; the first score of a page counts), and leaving that page waits for it —
 * moving on before would close the page with no points, and the score would then be refused.
 */
import { readErrorCode } from '@parcours/domain/errors';
import { useRef } from 'react';
import type { TincanScore } from '../exercises/row-props';
import type { LessonPage } from './api/lesson-page';
import { recordTincanScore } from './api/record-tincan-score';
import type { PageCache } from './page-cache';
import { isAnswered } from './player-model';

interface PendingScore {
  pageId: string;
  done: Promise<LessonPage | null>;
}

export function useTincanScore({
  lessonId,
  page,
  playing,
  cache,
  fail,
}: {
  lessonId: string;
  page: LessonPage | null;
  playing: boolean;
  cache: PageCache;
  fail: (error: unknown) => void;
}) {
  /** A tincan page's score on its way to the server: leaving that page waits for it. */
  const pendingScore = useRef<PendingScore | null>(null);

  /** The page once the score its module sent (if any) is recorded. */
  const settledScore = async (current: LessonPage): Promise<LessonPage> => {
    const pending = pendingScore.current;
    if (!pending || pending.pageId !== current.id) return current;
    return (await pending.done) ?? current;
  };

  /**
   * Already scored (409 INVALID_INPUTS) is not an error for the learner; other refusals take the
   * usual error path.
   */
  const tincanScore = (score: TincanScore) => {
    if (!page || !playing || page.block?.type !== 'tincan' || isAnswered(page)) return;
    // The server takes a module's score only with the launch it issued with the page (decision 0009).
    const launch = page.tincanLaunch;
    if (!launch || pendingScore.current?.pageId === page.id) return;
    const entry: PendingScore = { pageId: page.id, done: Promise.resolve(null) };
    entry.done = recordTincanScore(lessonId, page.id, launch, score).then(
      (recorded) => {
        // Shown only while that page still is: the learner may have moved on meanwhile.
        cache.update(recorded.id, () => recorded);
        return recorded;
      },
      (error: unknown) => {
        if (pendingScore.current === entry) pendingScore.current = null;
        if (readErrorCode(error) !== 'INVALID_INPUTS') fail(error);
        return null;
      },
    );
    pendingScore.current = entry;
  };

  return { settledScore, tincanScore };
}
