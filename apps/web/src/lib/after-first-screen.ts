/**
 * Issue 11: what the first screen does not need (the service worker's registration, the offline
 * sync and its banner, writing the home's copy to the device) starts once that screen's content
 * is painted and the browser is idle, so its scripts and their requests never come before the
 * content on a slow phone.
 *
 * A screen whose content comes with its data says when it is on screen (`firstScreenShown`, the
 * home does). Any other screen, or one that never says it (an error), counts as shown
 * SHOWN_DEADLINE_MS after the page's load event.
 */
import { useEffect, useState } from 'react';

export const SHOWN_DEADLINE_MS = 3_000;
const IDLE_TIMEOUT_MS = 2_000;

let markShown: () => void = () => undefined;
const shown = new Promise<void>((resolve) => {
  markShown = resolve;
});

/** The first screen's content is rendered: what waits for it may start after its paint. */
export function firstScreenShown(): void {
  markShown();
}

const loaded = (): Promise<void> =>
  document.readyState === 'complete'
    ? Promise.resolve()
    : new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// The frame that paints what was just rendered, then the next task.
const painted = (): Promise<void> =>
  new Promise((resolve) =>
    typeof requestAnimationFrame === 'function'
      ? requestAnimationFrame(() => setTimeout(resolve, 0))
      : setTimeout(resolve, 0),
  );

const idle = (): Promise<void> =>
  new Promise((resolve) =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS })
      : setTimeout(resolve, 0),
  );

let ready: Promise<void> | null = null;
let turns: Promise<void> | null = null;
let done = false;

/**
 * Resolves once the first screen is shown and painted, and the browser is idle. Each caller then
 * starts in a task of its own, in the order they asked: resumed together, what waited ran as one
 * long task on a slow phone, which delayed the first tap (Lighthouse's total blocking time).
 */
export function afterFirstScreen(): Promise<void> {
  ready ??= (async () => {
    await loaded();
    await Promise.race([shown, delay(SHOWN_DEADLINE_MS)]);
    await painted();
    await idle();
    done = true;
  })();
  const turn = (turns ?? ready).then(() => delay(0));
  turns = turn;
  return turn;
}

/** False until `afterFirstScreen()` resolves: a component that renders only after it. */
export function useAfterFirstScreen(): boolean {
  const [ready, setReady] = useState(done);
  useEffect(() => {
    if (ready) return undefined;
    let live = true;
    void afterFirstScreen().then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [ready]);
  return ready;
}
