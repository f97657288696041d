/**
 * Answering a page (docs/product.md §4 next flow, feedbacks, timed pages, tincan): Next (debounced,
 * asking first when nothing was answered), the clocks' ends and a module's own buttons send the
 * page; its feedbacks show one at a time; then the learner moves on. The answer is a mutation of
 * the player's one scope (page-cache.ts): its graded page is written to the cache, and the move
 * that follows is started from its onSuccess, so it runs after it in the same scope.
 */
import { NEXT_DEBOUNCE_MS } from '@parcours/domain/constants';
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import type { TincanAction } from '../exercises/row-props';
import type { LessonPage } from './api/lesson-page';
import { patchPage } from './api/patch-page';
import { isNetworkError, isOnline } from './offline/device';
import { isOfflinePage } from './offline/lesson-store';
import type { usePlayerOffline } from './offline/use-player-offline';
import { writeOptions, type PageCache } from './page-cache';
import { isAnswered, needsNoAnswerDialog, orderFeedbacks } from './player-model';
import { HOME } from './use-leave-lesson';
import type { DialogControl } from './use-player-dialog';

/** `then`: move on after it (Next, a clock's end), or go home (a module's close). */
interface Answer {
  page: LessonPage;
  answers: readonly unknown[];
  then: 'next' | 'home';
}

type Sent =
  /** The server holds it: `patched` when this call graded it (slides and tincan wait for `next`). */
  | { kind: 'recorded'; page: LessonPage; patched: boolean }
  /** Kept on the device (offline, or for the next sign-in): the page to show next, if any. */
  | { kind: 'kept'; page: LessonPage | null }
  | { kind: 'home' };

export interface AnswerOptions {
  lessonId: string;
  page: LessonPage | null;
  playing: boolean;
  waitingForStart: boolean;
  answers: readonly unknown[];
  dialog: DialogControl;
  cache: PageCache;
  offline: Pick<ReturnType<typeof usePlayerOffline>, 'answer' | 'keepForSignIn'>;
  advance: (from: LessonPage) => void;
  fail: (error: unknown) => void;
  announce: (message: string) => void;
}

export function useAnswer(o: AnswerOptions) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { lessonId, page, cache, dialog } = o;
  const lastNext = useRef(-Infinity);

  /**
   * The page as the server holds it when this write's turn came: a module's score sent before
   * ran first in the scope and wrote its recorded page (use-tincan-score.ts).
   */
  const settled = (current: LessonPage) => cache.current(current.id) ?? current;

  /** Slides and tincan pages need no patch but the last: `next` closes them (one round trip). */
  const record = async (current: LessonPage, answers: readonly unknown[]): Promise<Sent> => {
    const recorded = settled(current);
    const exercise = current.block?.type === 'exercice';
    const last = current.index >= current.count - 1;
    if (isAnswered(recorded) || !(exercise || last))
      return { kind: 'recorded', page: recorded, patched: false };
    const graded = await patchPage(lessonId, current.id, exercise ? answers : undefined);
    return { kind: 'recorded', page: graded, patched: true };
  };

  const send = useMutation({
    ...writeOptions(lessonId),
    onMutate: () => cache.cancelRead(),
    mutationFn: async ({ page: current, answers, then }: Answer): Promise<Sent> => {
      if (then === 'home') {
        if (!isAnswered(settled(current))) await patchPage(lessonId, current.id);
        return { kind: 'home' };
      }
      // Offline (or a page reached offline): the answer waits on the device, graded later.
      if (isOfflinePage(current) || !isOnline())
        return { kind: 'kept', page: await o.offline.answer(current, answers) };
      try {
        return await record(current, answers);
      } catch (error) {
        // The session ended as the answer went: it waits for the learner's next sign-in (0044).
        if (error instanceof ApiError && error.status === 401) {
          await o.offline.keepForSignIn(current, answers);
          return { kind: 'kept', page: null };
        }
        if (!isNetworkError(error)) throw error;
        return { kind: 'kept', page: await o.offline.answer(current, answers) };
      }
    },
    onSuccess: (sent) => {
      if (sent.kind === 'home') {
        void navigate(HOME);
        return;
      }
      if (sent.kind === 'kept') {
        if (sent.page) cache.show(sent.page);
        return;
      }
      if (sent.patched) {
        cache.show(sent.page);
        const feedbacks = orderFeedbacks(sent.page);
        if (feedbacks.length > 0) {
          dialog.open({ kind: 'feedback', feedbacks, index: 0, then: sent.page });
          return;
        }
      }
      // Queued behind this answer in the scope: it starts once this write is settled.
      o.advance(sent.page);
    },
    onError: o.fail,
  });

  /** Sends the page (answers, or the empty patch of slides and tincan), shows feedback, moves on. */
  const submit = (current: LessonPage, answers: readonly unknown[], then: Answer['then'] = 'next') => {
    if (!cache.writing()) send.mutate({ page: current, answers, then });
  };

  const shown = dialog.dialog;
  return {
    /** docs/product.md §4: Next is debounced 200 ms; a press while a write runs is ignored too. */
    next: () => {
      if (!page || !o.playing || shown || cache.writing() || o.waitingForStart || page.block === null) return;
      const now = performance.now();
      if (now - lastNext.current < NEXT_DEBOUNCE_MS) return;
      lastNext.current = now;
      if (needsNoAnswerDialog(page, o.answers)) dialog.open({ kind: 'noAnswer' });
      else submit(page, o.answers);
    },
    continueWithoutAnswer: () => {
      dialog.close();
      if (page) submit(page, o.answers);
    },
    closeFeedback: () => {
      if (shown?.kind !== 'feedback') return;
      if (shown.index + 1 < shown.feedbacks.length) {
        dialog.open({ ...shown, index: shown.index + 1 });
        return;
      }
      dialog.close();
      o.advance(shown.then);
    },
    /** Time is up: what was answered goes as it is (the server decides what the clock allows). */
    timeUp: () => {
      if (!page || isAnswered(page) || shown) return;
      o.announce(t('player.countdown.ended'));
      submit(page, o.answers);
    },
    /**
     * The lesson's own time is up: like the page's, the exercise goes as answered and the server
     * decides (LESSON_SKIPPED reaches the error dialog). Other pages have nothing to send; the
     * next move meets the server's refusal the same way.
     */
    lessonTimeUp: () => {
      if (!page) return;
      o.announce(t('player.countdown.lessonEnded'));
      if (isAnswered(page) || shown || page.block?.type !== 'exercice') return;
      submit(page, o.answers);
    },
    /** docs/product.md §4 tincan: 'action:next' and 'action:close' save an empty patch, then move on or go home. */
    tincanAction: (action: TincanAction) => {
      if (page && o.playing) submit(page, [], action === 'next' ? 'next' : 'home');
    },
  };
}
