/**
 * A tincan page's score (docs/product.md §4 tincan): the module reports it, the server records it
 * once (page mode only; the first score of a page counts), and leaving that page waits for it —
 * moving on before would close the page with no points, and the score would then be refused.
 * The wait is the player's one scope (page-cache.ts): the score is a mutation of that scope, so
 * the answer that closes the page starts after the recorded page is in the cache. Its key is not
 * the writes' key: a score on its way does not make End module a press to ignore.
 */
import { readErrorCode } from '@parcours/domain/errors';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TincanScore } from '../exercises/row-props';
import type { LessonPage } from './api/lesson-page';
import { playerKeys } from './api/query-keys';
import { recordTincanScore } from './api/record-tincan-score';
import { writeOptions, type PageCache } from './page-cache';
import { isAnswered } from './player-model';

interface Scored {
  pageId: string;
  launch: string;
  score: TincanScore;
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
}): (score: TincanScore) => void {
  const client = useQueryClient();
  const mutationKey = playerKeys.score(lessonId);
  const record = useMutation({
    ...writeOptions(lessonId),
    mutationKey,
    mutationFn: ({ pageId, launch, score }: Scored) => recordTincanScore(lessonId, pageId, launch, score),
    // Shown only while that page still is: the learner may have moved on meanwhile.
    onSuccess: (recorded) => cache.update(recorded.id, () => recorded),
    /**
     * Already scored (409 INVALID_INPUTS) is not an error for the learner; other refusals take the
     * usual error path.
     */
    onError: (error) => {
      if (readErrorCode(error) !== 'INVALID_INPUTS') fail(error);
    },
  });

  /** A score of this page on its way or recorded (a refused one lets the module send again). */
  const scored = (pageId: string) =>
    client.getMutationCache().findAll({
      mutationKey,
      exact: true,
      predicate: (m) =>
        (m.state.variables as Scored | undefined)?.pageId === pageId && m.state.status !== 'error',
    }).length > 0;

  return (score) => {
    if (!page || !playing || page.block?.type !== 'tincan' || isAnswered(page)) return;
    // The server takes a module's score only with the launch it issued with the page (decision 0009).
    const launch = page.tincanLaunch;
    if (!launch || scored(page.id)) return;
    record.mutate({ pageId: page.id, launch, score });
  };
}
