/**
 * The page-mode player (docs/product.md §4 lesson player, next flow, hints, feedbacks, timed pages,
 * NO_LESSON_PAGE_AVAILABLE): which page shows, the dialog in front, and every move. The server
 * decides; this hook sequences the calls and the dialogs. By concern (docs/architecture.md §5):
 * the answers not sent yet (use-page-drafts.ts), hints (use-player-hints.ts), a module's score
 * (use-tincan-score.ts), leaving the lesson (use-leave-lesson.ts), offline play
 * (offline/use-player-offline.ts) and the clocks (use-timers.ts); the moves stay here.
 */
import { NEXT_DEBOUNCE_MS } from '@parcours/domain/constants';
import { readErrorCode, type ErrorCode } from '@parcours/domain/errors';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import type { TincanAction } from '../exercises/row-props';
import { getCurrentPage, useCurrentPage } from './api/get-current-page';
import type { LessonPage } from './api/lesson-page';
import { playerKeys } from './api/query-keys';
import { chooseChild } from './api/choose-child';
import { nextPage } from './api/next-page';
import { patchPage } from './api/patch-page';
import { previousPage } from './api/previous-page';
import { retryPage } from './api/retry-page';
import { startTimedPage } from './api/start-timed-page';
import {
  canRetry,
  isAnswered,
  needsNoAnswerDialog,
  needsTimedStart,
  orderFeedbacks,
  type Feedback,
} from './player-model';
import { HOME, useLeaveLesson } from './use-leave-lesson';
import { usePageDrafts } from './use-page-drafts';
import { usePlayerHints } from './use-player-hints';
import { useTincanScore } from './use-tincan-score';
import { useKeepAlive, usePageClock } from './use-timers';
import { usePlayerOffline } from './offline/use-player-offline';
import { isOfflinePage } from './offline/lesson-store';
import type { OfflineStop } from './offline/OfflineDialog';

export type PlayerMode = 'page' | 'correction';

export type PlayerDialog =
  | { kind: 'feedback'; feedbacks: Feedback[]; index: number }
  | { kind: 'noAnswer' }
  | { kind: 'hint'; cost: number }
  | { kind: 'error'; code: ErrorCode }
  | { kind: 'offline'; reason: OfflineStop }
  | null;

export { HOME } from './use-leave-lesson';

/** Codes that go home without a dialog: a 401 is already on its way to the sign-in page. */
const SILENT_CODES: ReadonlySet<ErrorCode> = new Set(['UNAUTHORIZED']);

export function usePagePlayer({
  lessonId,
  pageId,
  mode,
}: {
  lessonId: string;
  pageId: string | null;
  mode: PlayerMode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useCurrentPage(lessonId, pageId);
  const queryClient = useQueryClient();
  const [moved, setMoved] = useState<LessonPage | null>(null);
  const page = moved ?? query.data ?? null;
  const [dialog, setDialog] = useState<PlayerDialog>(null);
  const [busy, setBusy] = useState(false);
  const [live, setLive] = useState('');
  const inFlight = useRef(false);
  const lastNext = useRef(-Infinity);
  const afterFeedback = useRef<(() => void) | null>(null);

  const playing = mode === 'page';
  const waitingForStart = page !== null && playing && needsTimedStart(page);
  const readOnly = !playing || page === null || isAnswered(page) || waitingForStart;
  const { answers, setAnswer } = usePageDrafts(page, readOnly);
  const leave = useLeaveLesson(lessonId, () =>
    setDialog({ kind: 'error', code: 'NO_LESSON_PAGE_AVAILABLE' }),
  );

  const announce = (message: string) => setLive(message);

  const fail = (error: unknown) => {
    // No answer from the network is no reason to leave the lesson: the banner says it is offline.
    if (offline.isNetworkError(error)) return;
    const code = readErrorCode(error);
    if (code === 'NO_LESSON_PAGE_AVAILABLE') {
      void leave('noPage');
      return;
    }
    if (code && SILENT_CODES.has(code)) return;
    if (!code) console.error(error);
    setDialog({ kind: 'error', code: code ?? 'UNDEFINED' });
  };

  const offline = usePlayerOffline({
    lessonId,
    playing,
    page,
    loadError: query.error,
    show: (next) => setMoved(next),
    stop: (reason) => setDialog({ kind: 'offline', reason }),
    announce,
    done: () => void navigate(HOME),
    refresh: () => {
      setMoved(null);
      void query.refetch();
    },
    savedMessage: t('offline.saved'),
    sentMessage: t('offline.sent'),
  });
  const loadCode =
    // Offline, a failed load resumes from the device (or says the lesson is not kept there).
    query.error && !(playing && offline.isNetworkError(query.error))
      ? (readErrorCode(query.error) ?? 'UNDEFINED')
      : null;
  useEffect(() => {
    if (loadCode === 'NO_LESSON_PAGE_AVAILABLE') void leave('noPage');
    // leave() reads only refs and stable values; running it again for the same error would repeat the flow.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadCode]);

  const show = (next: LessonPage) => {
    setMoved(next);
  };

  const run = async (work: () => Promise<void>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      await work();
    } catch (error) {
      fail(error);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  /** Moves past a recorded page: the next one, or out of the lesson after the last. */
  const advance = (from: LessonPage) =>
    run(async () => {
      if (from.index >= from.count - 1) {
        await leave('lastPage');
        return;
      }
      if (isOfflinePage(from) || !offline.online()) {
        await offline.moveOn(from);
        return;
      }
      try {
        show(await nextPage(lessonId, from.id));
      } catch (error) {
        if (!offline.isNetworkError(error)) throw error;
        await offline.moveOn(from);
      }
    });

  const { settledScore, tincanScore } = useTincanScore({
    lessonId,
    page,
    playing,
    loaded: query.data,
    setMoved,
    fail,
  });

  /** Sends the page (answers, or the empty patch of slides and tincan), shows feedback, moves on. */
  const submit = (current: LessonPage, currentAnswers: readonly unknown[]) =>
    run(async () => {
      // Offline (or a page reached offline): the answer waits on the device, graded later.
      if (isOfflinePage(current) || !offline.online()) {
        await offline.answer(current, currentAnswers);
        return;
      }
      try {
        await submitOnline(current, currentAnswers);
      } catch (error) {
        // The session ended as the answer went: it waits for the learner's next sign-in (0044).
        // (An exercise refused on its way to the next page was graded already: nothing waits.)
        if (error instanceof ApiError && error.status === 401) {
          const graded = current.block?.type === 'exercice' && error.path.endsWith('/pages/next');
          if (!graded) await offline.keepForSignIn(current, currentAnswers);
          return;
        }
        if (!offline.isNetworkError(error)) throw error;
        await offline.answer(current, currentAnswers);
      }
    });

  const submitOnline = async (current: LessonPage, currentAnswers: readonly unknown[]) => {
    let recorded = await settledScore(current);
    // Slides and tincan pages need no patch: `next` closes them itself (docs/api.md), one
    // round trip instead of two.
    const exercise = current.block?.type === 'exercice';
    const last = current.index >= current.count - 1;
    if (!isAnswered(recorded) && (exercise || last)) {
      recorded = await patchPage(lessonId, current.id, exercise ? currentAnswers : undefined);
      show(recorded);
      const feedbacks = orderFeedbacks(recorded);
      if (feedbacks.length > 0) {
        afterFeedback.current = () => void advance(recorded);
        setDialog({ kind: 'feedback', feedbacks, index: 0 });
        return;
      }
    }
    const from = recorded;
    // Released before moving on so advance() can take the lock.
    inFlight.current = false;
    await advance(from);
  };

  /** docs/product.md §4: Next is debounced 200 ms; a press while a call is running is ignored too. */
  const next = () => {
    if (!page || !playing || dialog || inFlight.current || waitingForStart || page.block === null) return;
    const now = performance.now();
    if (now - lastNext.current < NEXT_DEBOUNCE_MS) return;
    lastNext.current = now;
    if (needsNoAnswerDialog(page, answers)) {
      setDialog({ kind: 'noAnswer' });
      return;
    }
    void submit(page, answers);
  };

  /** A multiblock page: the chosen block becomes the page. */
  const choose = (nodeId: string) => {
    if (!page || !playing) return;
    void run(async () => show(await chooseChild(lessonId, page.id, nodeId)));
  };

  /**
   * A new attempt of an answered exercise: the server archives the answered one and the new
   * attempt (fresh id, so fresh drafts) takes its place; focus goes back to the page title.
   */
  const retry = () => {
    if (!page || !playing || dialog || !canRetry(page)) return;
    void run(async () => {
      const attempt = await retryPage(lessonId, page.id);
      show(attempt);
      announce(t('player.retry.started', { attempt: attempt.attempt }));
    });
  };

  const previous = () => {
    if (!page || !playing || page.index <= 0) return;
    if (isOfflinePage(page)) {
      setDialog({ kind: 'offline', reason: 'notStored' });
      return;
    }
    void run(async () => show(await previousPage(lessonId, page.id)));
  };

  const { hints, revealHint, requestHint } = usePlayerHints({
    lessonId,
    page,
    readOnly,
    run,
    setMoved,
    askCost: (cost) => setDialog({ kind: 'hint', cost }),
    closeDialog: () => setDialog(null),
    announce,
  });

  const closeFeedback = () => {
    if (dialog?.kind !== 'feedback') return;
    if (dialog.index + 1 < dialog.feedbacks.length) {
      setDialog({ ...dialog, index: dialog.index + 1 });
      return;
    }
    setDialog(null);
    const then = afterFeedback.current;
    afterFeedback.current = null;
    then?.();
  };

  const continueWithoutAnswer = () => {
    setDialog(null);
    if (page) void submit(page, answers);
  };

  const startTimed = () => {
    if (!page) return;
    void run(async () => show(await startTimedPage(lessonId, page.id)));
  };

  /** Time is up: what was answered goes as it is (the server decides what the clock allows). */
  const timeUp = () => {
    if (!page || isAnswered(page) || dialog) return;
    announce(t('player.countdown.ended'));
    void submit(page, answers);
  };

  /**
   * The lesson's own time is up: like the page's, the exercise goes as answered and the server
   * decides (LESSON_SKIPPED reaches the error dialog). Other pages have nothing to send; the
   * next move meets the server's refusal the same way.
   */
  const lessonTimeUp = () => {
    if (!page) return;
    announce(t('player.countdown.lessonEnded'));
    if (isAnswered(page) || dialog || page.block?.type !== 'exercice') return;
    void submit(page, answers);
  };

  /** docs/product.md §4 tincan: 'action:next' and 'action:close' save an empty patch, then move on or go home. */
  const tincanAction = (action: TincanAction) => {
    if (!page || !playing) return;
    if (action === 'next') {
      void submit(page, []);
      return;
    }
    void run(async () => {
      if (!isAnswered(await settledScore(page))) await patchPage(lessonId, page.id);
      void navigate(HOME);
    });
  };

  /**
   * A package's dialog closed, or the package finished by itself (decision 0050): the server now
   * holds its score, completion and time, so the page shown and the lesson are read again. The
   * page is replaced only while it is still the one shown.
   */
  const packageClosed = () => {
    if (!page || !playing) return;
    const shownAtClose = query.data;
    void getCurrentPage(lessonId, { pageId: page.id }).then(
      (fresh) => setMoved((shown) => ((shown ?? shownAtClose)?.id === fresh.id ? fresh : shown)),
      (error: unknown) => {
        if (!offline.isNetworkError(error)) fail(error);
      },
    );
    void queryClient.invalidateQueries({ queryKey: playerKeys.lesson(lessonId) });
  };

  const closeError = () => {
    setDialog(null);
    void navigate(HOME);
  };

  const seconds = usePageClock(page?.id ?? null, playing && page !== null);
  useKeepAlive(lessonId, page?.id ?? null, playing && page !== null && !isOfflinePage(page), fail);

  return {
    query,
    page,
    loadError:
      loadCode && loadCode !== 'NO_LESSON_PAGE_AVAILABLE' && !SILENT_CODES.has(loadCode) ? loadCode : null,
    answers,
    setAnswer,
    readOnly,
    waitingForStart,
    busy,
    dialog,
    live,
    announce,
    seconds,
    hints,
    next,
    previous,
    choose,
    requestHint,
    revealHint,
    cancelHint: () => setDialog(null),
    closeFeedback,
    stay: () => setDialog(null),
    continueWithoutAnswer,
    startTimed,
    declineTimed: () => void navigate(HOME),
    timeUp,
    lessonTimeUp,
    retry,
    tincanAction,
    tincanScore,
    packageClosed,
    closeError,
    closeOffline: () => setDialog(null),
    offlineStatus: offline.status,
    dismissRefused: offline.dismissRefused,
    goHome: () => void navigate(HOME),
  };
}

export type PagePlayer = ReturnType<typeof usePagePlayer>;
