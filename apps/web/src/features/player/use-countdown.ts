import { COUNTDOWN_ENDED_DELAY_MS } from '@parcours/domain/constants';
import { useEffect, useRef, useState } from 'react';
import { countdownPhase } from './player-model';

/**
 * SPEC §4 countdown: remaining seconds from a deadline (so a slow tick never drifts), 'ending'
 * at 5 s, 'ended' at 0, then `onEnded` once, 0.5 s later, and the clock stops. `key` restarts it
 * (a new page, a new start from the server).
 */
export function useCountdown(seconds: number | null, key: string, onEnded: () => void) {
  const [state, setState] = useState<{ key: string; remaining: number | null }>({ key, remaining: seconds });
  const onEndedRef = useRef(onEnded);
  useEffect(() => {
    onEndedRef.current = onEnded;
  });

  useEffect(() => {
    if (seconds === null) return undefined;
    const deadline = performance.now() + seconds * 1000;
    let endTimer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const remaining = Math.ceil((deadline - performance.now()) / 1000);
      setState({ key, remaining });
      if (remaining <= 0) {
        clearInterval(timer);
        endTimer = setTimeout(() => onEndedRef.current(), COUNTDOWN_ENDED_DELAY_MS);
      }
    };
    const timer = setInterval(tick, 1000);
    return () => {
      clearInterval(timer);
      if (endTimer) clearTimeout(endTimer);
    };
  }, [seconds, key]);

  const remaining = state.key === key ? (state.remaining ?? seconds) : seconds;
  return remaining === null ? null : { remaining: Math.max(0, remaining), phase: countdownPhase(remaining) };
}
