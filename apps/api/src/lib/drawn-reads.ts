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
  /**
   * Set by `GET /users/me`: the JSON of the document its answer is made of (`me()` of
   * modules/users/service.ts). The kept page is checked by making that document again, without
   * the route, and comparing (plugins/signed-in-pages.ts).
   */
  viewerDocument?: string;
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

/**
 * Said by `GET /users/me` with the document it answers: when this request is a drawn page's read,
 * the page is checked against that document made again, not by reading the route again.
 */
export function noteViewerDocument(document: unknown): void {
  const read = current.getStore();
  if (read) read.viewerDocument = JSON.stringify(document);
}
