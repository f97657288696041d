import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The reads a page drawn on the server made (decision 0061), each told apart by what keeps it
 * current:
 * - **covered**: the answer came out of the answer cache (lib/answer-cache.ts, decision 0015)
 *   as the viewer's own read, i.e. it is a function of the tenant, the viewer, administrator or
 *   not, the URL and the viewer's version stamps — the very key of that cache — until
 *   `validUntil`. A drawn page keyed by the same things need not make that read again.
 * - anything else is **uncovered**: made again on every request for the kept page and compared
 *   byte for byte with what the page was drawn from (plugins/drawn-page-cache.ts). A read added
 *   to a drawn screen later is uncovered until its route says otherwise: it costs speed, never
 *   staleness.
 *
 * The route learns it is being read for a drawn page through the async context of the in-process
 * call (plugins/signed-in-html.ts `injectFetch` runs each call in `recordingRead`).
 */
export interface DrawnRead {
  /** Path and query, as the renderer asked for it. */
  url: string;
  status: number;
  body: Buffer;
  /** Set by the answer cache when the answer is the viewer's own cached answer. */
  coveredUntil: number | null;
}

const current = new AsyncLocalStorage<DrawnRead>();

/** Runs the in-process call `fn` as the read `read`: what its route says about it lands there. */
export function recordingRead<T>(read: DrawnRead, fn: () => Promise<T>): Promise<T> {
  return current.run(read, fn);
}

/**
 * Said by the answer cache as it sends a viewer's own answer: when this request is a drawn page's
 * read, that read is covered by the stamps until `validUntil` (ms since the epoch).
 */
export function noteStampCovered(validUntil: number): void {
  const read = current.getStore();
  if (read) read.coveredUntil = validUntil;
}
