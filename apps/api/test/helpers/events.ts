/**
 * Waiting on events rather than on the clock (issue 40 item 6): a test resumes when what it waits
 * for happens, not after a guess of how long that takes.
 */

/** Resolves once `list` holds `n` items, woken by its own pushes (no polling). */
export function whenLength<T>(list: T[], n: number): Promise<void> {
  if (list.length >= n) return Promise.resolve();
  return new Promise((resolve) => {
    const push = list.push.bind(list);
    list.push = (...items: T[]) => {
      const length = push(...items);
      if (length >= n) resolve();
      return length;
    };
  });
}

/** An event `ms` from now: a bound to race a wait against, never a wait of its own. */
export function deadline(ms: number): Promise<void> {
  return new Promise((resolve) => AbortSignal.timeout(ms).addEventListener('abort', () => resolve()));
}
