/**
 * Moving through the lesson (docs/product.md §4 next flow): the next page, the previous one, a
 * multiblock's child, a new attempt, a timed page's start. Each is a mutation of the player's
 * one scope (page-cache.ts) whose answer becomes the page shown; a press while one of the
 * lesson's writes runs or waits is ignored.
 */
import { ApiError } from '../../lib/api-client';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { chooseChild } from './api/choose-child';
import type { LessonPage } from './api/lesson-page';
import { nextPage } from './api/next-page';
import { previousPage } from './api/previous-page';
import { retryPage } from './api/retry-page';
import { startTimedPage } from './api/start-timed-page';
import { isNetworkError, isOnline } from './offline/device';
import { isOfflinePage } from './offline/lesson-store';
import type { usePlayerOffline } from './offline/use-player-offline';
import { writeOptions, type PageCache } from './page-cache';
import { canRetry } from './player-model';
import type { LeaveReason } from './use-leave-lesson';
import type { PlayerDialog } from './use-player-dialog';

type PlayerOffline = ReturnType<typeof usePlayerOffline>;

/** The moves the server answers with the page to show. */
type Move =
  | { to: 'previous' | 'retry' | 'start'; from: LessonPage }
  | { to: 'child'; from: LessonPage; nodeId: string };

export interface MovesOptions {
  lessonId: string;
  page: LessonPage | null;
  playing: boolean;
  /** Whether a dialog is in front (no retry behind it). */
  dialogOpen: boolean;
  cache: PageCache;
  offline: PlayerOffline;
  leave: (why: LeaveReason) => Promise<void>;
  fail: (error: unknown) => void;
  open: (dialog: PlayerDialog) => void;
  announce: (message: string) => void;
}

export function usePageMoves(o: MovesOptions) {
  const { t } = useTranslation();
  const { lessonId, cache } = o;

  /** Past a recorded page: the next one (the device's, offline), or out of the lesson after the last. */
  const next = useMutation({
    ...writeOptions(lessonId),
    onMutate: () => cache.cancelRead(),
    mutationFn: async (from: LessonPage): Promise<LessonPage | null> => {
      if (from.index >= from.count - 1) {
        await o.leave('lastPage');
        return null;
      }
      if (isOfflinePage(from) || !isOnline()) return o.offline.moveOn(from);
      try {
        return await nextPage(lessonId, from.id);
      } catch (error) {
        // The session ended as a slide was being closed by this call: its "seen" waits for the
        // learner's next sign-in (decision 0044). An exercise was graded already: nothing waits.
        if (error instanceof ApiError && error.status === 401 && from.block?.type !== 'exercice') {
          await o.offline.keepForSignIn(from, []);
          return null;
        }
        if (!isNetworkError(error)) throw error;
        return o.offline.moveOn(from);
      }
    },
    onSuccess: (page) => {
      if (page) cache.show(page);
    },
    onError: o.fail,
  });

  const move = useMutation({
    ...writeOptions(lessonId),
    onMutate: () => cache.cancelRead(),
    mutationFn: (m: Move) => {
      if (m.to === 'previous') return previousPage(lessonId, m.from.id);
      if (m.to === 'child') return chooseChild(lessonId, m.from.id, m.nodeId);
      if (m.to === 'retry') return retryPage(lessonId, m.from.id);
      return startTimedPage(lessonId, m.from.id);
    },
    onSuccess: (page, m) => {
      cache.show(page);
      // A new attempt has a fresh id (so fresh drafts); focus goes back to the page title.
      if (m.to === 'retry') o.announce(t('player.retry.started', { attempt: page.attempt }));
    },
    onError: o.fail,
  });

  const start = (m: Move) => {
    if (!cache.writing()) move.mutate(m);
  };
  const page = o.playing ? o.page : null;

  return {
    /** Moves past `from`; also while another write holds the scope (it runs after it). */
    advance: (from: LessonPage) => next.mutate(from),
    previous: () => {
      if (!page || page.index <= 0) return;
      if (isOfflinePage(page)) o.open({ kind: 'offline', reason: 'notStored' });
      else start({ to: 'previous', from: page });
    },
    /** A multiblock page: the chosen block becomes the page. */
    choose: (nodeId: string) => {
      if (page) start({ to: 'child', from: page, nodeId });
    },
    /** A new attempt of an answered exercise: the server archives the answered one. */
    retry: () => {
      if (page && !o.dialogOpen && canRetry(page)) start({ to: 'retry', from: page });
    },
    startTimed: () => {
      if (o.page) start({ to: 'start', from: o.page });
    },
  };
}
