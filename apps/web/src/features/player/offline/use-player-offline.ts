/**
 * The player's offline side (issue 12, decision 0013): keeps the lesson on the device while
 * online, answers into the device's queue and moves to the next stored page while offline,
 * resumes a stored page when a reload finds no network, and refreshes once queued answers are
 * graded. The server still decides everything when the answers arrive.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import { afterFirstScreen } from '../../../lib/after-first-screen';
import { setLastLesson } from '../../../lib/storage';
import type { LessonPage } from '../api/lesson-page';
import {
  answerQueue,
  isNetworkError,
  isOnline,
  keepLesson,
  lessonStore,
  onQueueSent,
  startOfflineSync,
  useOfflineStatus,
} from './device';
import { isOfflinePage, toOfflineLessonPage } from './lesson-store';
import type { OfflineStop } from './OfflineDialog';

export interface PlayerOfflineOptions {
  lessonId: string;
  playing: boolean;
  page: LessonPage | null;
  loadError: unknown;
  /** Shows a page kept on the device, when a reload finds no network. */
  show: (page: LessonPage) => void;
  stop: (reason: OfflineStop) => void;
  announce: (message: string) => void;
  /** The last page was answered offline: the lesson is left. */
  done: () => void;
  /** Queued answers were graded: the player reloads its page from the server. */
  refresh: () => void;
  savedMessage: string;
  sentMessage: string;
}

/** Where a page reached offline came from: the queue places it on the server from there. */
interface From {
  pageId: string | null;
  nodeId: string;
}

export function usePlayerOffline(o: PlayerOfflineOptions) {
  const status = useOfflineStatus();
  const from = useRef(new Map<string, From>());
  const opts = useRef(o);
  // A layout effect: the latest value is in place before the next event or timer, whatever
  // React's scheduling of plain effects (Enter right after ticking an answer must send it).
  useLayoutEffect(() => {
    opts.current = o;
  });

  // The home's resume card offers the lesson last played on this device (issue 12).
  useEffect(() => {
    if (o.playing) setLastLesson(o.lessonId);
  }, [o.playing, o.lessonId]);

  useEffect(() => {
    startOfflineSync();
    return onQueueSent((report) => {
      const mine = report.sent.some((s) => s.lessonId === opts.current.lessonId);
      if (!mine) return;
      opts.current.announce(opts.current.sentMessage);
      opts.current.refresh();
    });
  }, []);

  // Online, each new unanswered page keeps the lesson (this page and those after it) on the device.
  const keptFor = useRef<string | null>(null);
  const page = o.page;
  useEffect(() => {
    if (!o.playing || !page || isOfflinePage(page) || !isOnline()) return;
    if (page.results !== null || keptFor.current === page.id) return;
    keptFor.current = page.id;
    // After the first screen's paint: on a slow phone the upcoming pages would otherwise share
    // the network with the page being opened (issue 11). Later pages go at once.
    void afterFirstScreen()
      .then(() => keepLesson(page))
      .catch(() => undefined);
  }, [o.playing, page]);

  // A reload without the network: the page the device was on, if it keeps this lesson.
  const loadError = o.loadError;
  useEffect(() => {
    if (!o.playing || !loadError || !isNetworkError(loadError)) return;
    let cancelled = false;
    void (async () => {
      const resume = await lessonStore.resumePoint(o.lessonId).catch(() => null);
      if (cancelled) return;
      if (!resume) {
        opts.current.stop('notStored');
        return;
      }
      if (resume.from) from.current.set(resume.page.nodeId, resume.from);
      opts.current.show(resume.page);
    })();
    return () => {
      cancelled = true;
    };
  }, [o.playing, o.lessonId, loadError]);

  /**
   * After the page `current`, the next page the device holds (for the caller to show), or null
   * once it said why there is none.
   */
  const moveOn = async (current: LessonPage): Promise<LessonPage | null> => {
    if (current.index >= current.count - 1) {
      opts.current.done();
      return null;
    }
    const next = await lessonStore.pageAfter(current.lessonId, current.index).catch(() => undefined);
    if (!next) {
      opts.current.stop('notStored');
      return null;
    }
    if (next.needsNetwork) {
      opts.current.stop(next.needsNetwork);
      return null;
    }
    const origin: From = { pageId: isOfflinePage(current) ? null : current.id, nodeId: current.nodeId };
    from.current.set(next.nodeId, origin);
    await lessonStore.moveCursor(
      current.lessonId,
      isOfflinePage(current) ? null : current,
      next.nodeId,
      origin,
    );
    return toOfflineLessonPage(next, current);
  };

  /** The answer waits on the device, in order, for its learner's next send. */
  const enqueue = async (current: LessonPage, answers: readonly unknown[]) => {
    const type = current.block?.type;
    const offlinePage = isOfflinePage(current);
    const origin = offlinePage ? from.current.get(current.nodeId) : undefined;
    await answerQueue.enqueue({
      lessonId: current.lessonId,
      nodeId: current.nodeId,
      pageId: offlinePage ? null : current.id,
      fromPageId: origin?.pageId ?? null,
      fromNodeId: origin?.nodeId ?? null,
      answers: type === 'exercice' ? [...answers] : null,
      title: current.block?.title ?? '',
    });
  };

  /** Offline: the answer waits on the device in order, and the learner goes on (to the page returned). */
  const answer = async (current: LessonPage, answers: readonly unknown[]): Promise<LessonPage | null> => {
    const type = current.block?.type;
    if (type === 'tincan' || current.timeLimit !== null || current.block === null) {
      opts.current.stop(type === 'tincan' ? 'tincan' : current.block === null ? 'multiblock' : 'timed');
      return null;
    }
    await enqueue(current, answers);
    opts.current.announce(opts.current.savedMessage);
    return moveOn(current);
  };

  /**
   * The session ended as the answer went (a 401: expired or revoked token, decision 0044): the
   * app is on its way to /login; the answer waits on the device and is sent after sign-in. A
   * timed or tincan page cannot wait (the server's clock, the package's own state).
   */
  const keepForSignIn = async (current: LessonPage, answers: readonly unknown[]) => {
    const type = current.block?.type;
    if (type === 'tincan' || current.timeLimit !== null || current.block === null) return;
    await enqueue(current, answers);
  };

  return {
    status,
    answer,
    keepForSignIn,
    moveOn,
    dismissRefused: () => void answerQueue.dismissRefused(),
  };
}
