import { useEffect, useState, type RefObject } from 'react';

/** docs/product.md §4: a module is fully seen once scrolled past 90 %. */
export const FULL_SEEN_RATIO = 0.9;
/** How often the position is read (scroll events do not reach us from inside the frame). */
export const SEEN_POLL_MS = 200;

/**
 * How much of the frame has come into view from its top, 0..1: the part above the viewport's
 * bottom edge (what the learner scrolled past), whatever is above the viewport's top.
 */
export function seenFraction(rect: { top: number; height: number }, viewportHeight: number): number {
  if (rect.height <= 0) return 0;
  return Math.min(1, Math.max(0, (viewportHeight - rect.top) / rect.height));
}

/** True once the element has been scrolled past 90 %, polled every 200 ms; it stays true. */
export function useFullSeen(ref: RefObject<HTMLElement | null>, active = true): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (seen || !active) return undefined;
    const timer = window.setInterval(() => {
      const el = ref.current;
      if (!el) return;
      if (seenFraction(el.getBoundingClientRect(), window.innerHeight) >= FULL_SEEN_RATIO) setSeen(true);
    }, SEEN_POLL_MS);
    return () => window.clearInterval(timer);
  }, [ref, seen, active]);
  return seen;
}
