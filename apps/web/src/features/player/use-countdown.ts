import { COUNTDOWN_ENDED_DELAY_MS, COUNTDOWN_WARNING_S } from '@parcours/domain/constants';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { countdownPhase } from './player-model';

/**
 * SPEC §4 countdown: remaining seconds from a deadline (so a slow tick never drifts), 'warning'
 * from 20 s, 'ending' at 5 s, 'ended' at 0, then `onEnded` once, 0.5 s later, and the clock
 * stops. `key` restarts it (a new page, a new start from the server).
 * `warned` turns true once per key, after a render, when the clock is 20 s or less from its end
 * (decision 0019): a live region filled then is announced once, even by a clock that (re)starts
 * with less than 20 s left, whose first render screen readers do not announce.
 */
export function useCountdown(seconds: number | null, key: string, onEnded: () => void) {
  const [state, setState] = useState<{ key: string; remaining: number | null; warned: boolean }>({
    key,
    remaining: seconds,
    warned: false,
  });
  const onEndedRef = useRef(onEnded);
  // A layout effect: the latest value is in place before the next event or timer, whatever
  // React's scheduling of plain effects (Enter right after ticking an answer must send it).
  useLayoutEffect(() => {
    onEndedRef.current = onEnded;
  });

  useEffect(() => {
    if (seconds === null) return undefined;
    const deadline = performance.now() + seconds * 1000;
    let endTimer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const remaining = Math.ceil((deadline - performance.now()) / 1000);
      setState((s) => ({
        key,
        remaining,
        warned: (s.key === key && s.warned) || (remaining > 0 && remaining <= COUNTDOWN_WARNING_S),
      }));
      if (remaining <= 0) {
        clearInterval(timer);
        endTimer = setTimeout(() => onEndedRef.current(), COUNTDOWN_ENDED_DELAY_MS);
      }
    };
    const timer = setInterval(tick, 1000);
    // Already inside the last 20 s: warned right after the first render, not within it.
    const warnNow = seconds > 0 && seconds <= COUNTDOWN_WARNING_S ? setTimeout(tick, 0) : undefined;
    return () => {
      clearInterval(timer);
      if (endTimer) clearTimeout(endTimer);
      if (warnNow) clearTimeout(warnNow);
    };
  }, [seconds, key]);

  const current = state.key === key;
  const remaining = current ? (state.remaining ?? seconds) : seconds;
  if (remaining === null) return null;
  return {
    remaining: Math.max(0, remaining),
    phase: countdownPhase(remaining),
    warned: current && state.warned,
  };
}
