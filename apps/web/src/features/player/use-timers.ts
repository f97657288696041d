import { KEEP_ALIVE_MS, LESSON_TIMER_MS } from '@parcours/domain/constants';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ping } from './api/ping';

/**
 * SPEC §4: the 1-second lesson timer. Counts seconds on the page shown, restarts with each page,
 * and stops when the player leaves (or in correction mode, where it is off).
 */
export function usePageClock(pageId: string | null, enabled: boolean): number {
  const [tick, setTick] = useState<{ pageId: string | null; seconds: number }>({ pageId, seconds: 0 });
  useEffect(() => {
    if (!enabled || !pageId) return undefined;
    const timer = setInterval(
      () =>
        setTick((t) => (t.pageId === pageId ? { pageId, seconds: t.seconds + 1 } : { pageId, seconds: 1 })),
      LESSON_TIMER_MS,
    );
    return () => clearInterval(timer);
  }, [pageId, enabled]);
  return tick.pageId === pageId ? tick.seconds : 0;
}

/**
 * SPEC §4: the 10-second keep-alive. A failed ping stops pinging and goes to the player's error
 * handling (SPEC §8). A hidden tab is not pinged: time nobody spends reading is not counted.
 */
export function useKeepAlive(
  lessonId: string,
  pageId: string | null,
  enabled: boolean,
  onError: (error: unknown) => void,
): void {
  const onErrorRef = useRef(onError);
  // A layout effect: the latest value is in place before the next event or timer, whatever
  // React's scheduling of plain effects (Enter right after ticking an answer must send it).
  useLayoutEffect(() => {
    onErrorRef.current = onError;
  });
  useEffect(() => {
    if (!enabled || !pageId) return undefined;
    let stopped = false;
    const timer = setInterval(() => {
      if (document.hidden) return;
      ping(lessonId, pageId).catch((error: unknown) => {
        if (stopped) return;
        stopped = true;
        clearInterval(timer);
        onErrorRef.current(error);
      });
    }, KEEP_ALIVE_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [lessonId, pageId, enabled]);
}
