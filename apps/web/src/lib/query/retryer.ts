import { onlineManager } from './managers';
import type { NetworkMode, Retry, QueryOptions } from './types';

export interface RunOptions {
  retry: Retry;
  retryDelay?: QueryOptions['retryDelay'];
  networkMode?: NetworkMode;
  signal?: AbortSignal;
  /** After each failure that will be retried, with the number of failures so far. */
  onFail?: (failureCount: number, error: Error) => void;
  /** Waiting for the browser to be online (true), or no longer (false). */
  onPause?: (paused: boolean) => void;
}

const aborted = (signal: AbortSignal | undefined) =>
  signal?.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError');

/** Resolves once the browser is online (at once if it is); rejects if `signal` aborts first. */
function online(options: RunOptions): Promise<void> | void {
  if (onlineManager.isOnline()) return;
  options.onPause?.(true);
  return new Promise<void>((resolve, reject) => {
    const stop = onlineManager.subscribe((now) => {
      if (!now) return;
      stop();
      options.signal?.removeEventListener('abort', abort);
      options.onPause?.(false);
      resolve();
    });
    const abort = () => {
      stop();
      reject(aborted(options.signal));
    };
    options.signal?.addEventListener('abort', abort, { once: true });
  });
}

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(aborted(signal));
      },
      { once: true },
    );
  });

/**
 * Runs `fn`, retrying after failures as `retry` says (TanStack Query's rules: the function gets
 * the failures before this one; waits of 1 s, 2 s, 4 s… up to 30 s unless `retryDelay` says
 * otherwise). In the 'online' network mode every attempt waits for the browser to be online; in
 * 'offlineFirst' only the retries do; 'always' never waits.
 */
export async function runWithRetry<T>(fn: () => T | Promise<T>, options: RunOptions): Promise<T> {
  const mode = options.networkMode ?? 'online';
  for (let failures = 0; ;) {
    if (mode === 'online' || (mode === 'offlineFirst' && failures > 0)) await online(options);
    try {
      return await fn();
    } catch (caught) {
      const error = caught as Error;
      const { retry, retryDelay } = options;
      const again =
        !options.signal?.aborted &&
        (retry === true ||
          (typeof retry === 'number' && failures < retry) ||
          (typeof retry === 'function' && retry(failures, error)));
      if (!again) throw error;
      const delay =
        typeof retryDelay === 'function'
          ? retryDelay(failures, error)
          : (retryDelay ?? Math.min(1000 * 2 ** failures, 30_000));
      failures += 1;
      options.onFail?.(failures, error);
      await sleep(delay, options.signal);
    }
  }
}
