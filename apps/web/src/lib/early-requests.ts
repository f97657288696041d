/**
 * Issue 11 (decision 0024): the first screen's reads start from index.html, in parallel with the
 * scripts, instead of after the scripts, the tenant, the user and the screen's code. The inline
 * script (app/early-start.ts) keeps each request it started on `window.__parcoursEarly`; the API
 * client (api-client.ts) takes a matching one instead of asking again. A taken answer is parsed
 * exactly like a fresh one, so a 401 or an error behaves as it always did.
 */

/** One request started by index.html. */
export interface EarlyEntry {
  /** What was fetched: the API base and path with its query string ('/api/users/me'). */
  url: string;
  /** The bearer token it was sent with (null: none). */
  token: string | null;
  /** When it was started (Date.now()). */
  at: number;
  response: Promise<Response>;
}

export const EARLY_GLOBAL = '__parcoursEarly';

/**
 * An early answer older than this is not taken: the screen asks again. The reads it stands for
 * refresh every 20 s anyway (docs/product.md §9 dashboard refresh), so an answer up to that old is one the
 * screen could be showing; a screen that comes later than that (a very slow start, or the
 * learner reaching the home from another page) gets a fresh read.
 */
export const EARLY_MAX_AGE_MS = 20_000;

/**
 * Parameters whose value does not name what is read: `noCache` (a timestamp the player adds so
 * that no HTTP cache answers) matches whatever value, but must be on both sides.
 */
const ANY_VALUE = new Set(['noCache']);

function comparable(url: string): { path: string; params: string[] } | null {
  try {
    const parsed = new URL(url, 'http://early.invalid');
    const params = [...parsed.searchParams].map(([key, value]) =>
      ANY_VALUE.has(key) ? `${key}=*` : `${key}=${value}`,
    );
    return { path: parsed.pathname, params: params.sort() };
  } catch {
    return null;
  }
}

/**
 * The matching rule: the same path (API base included) and the same query parameters, in any
 * order (values compared decoded), `noCache` matching any value.
 */
export function sameRequest(early: string, asked: string): boolean {
  const a = comparable(early);
  const b = comparable(asked);
  if (!a || !b || a.path !== b.path || a.params.length !== b.params.length) return false;
  return a.params.every((param, i) => param === b.params[i]);
}

function globalEntries(): EarlyEntry[] {
  if (typeof window === 'undefined') return [];
  const entries = (window as unknown as Record<string, unknown>)[EARLY_GLOBAL];
  return Array.isArray(entries) ? (entries as EarlyEntry[]) : [];
}

/**
 * The early answer for a GET of `url` sent with `token`, taken once: a second ask goes to the
 * network. Null when none matches (another token, another query, too old).
 */
export function takeEarlyResponse(
  url: string,
  token: string | null,
  entries: EarlyEntry[] = globalEntries(),
  now: number = Date.now(),
): Promise<Response> | null {
  const index = entries.findIndex(
    (entry) => entry.token === token && now - entry.at <= EARLY_MAX_AGE_MS && sameRequest(entry.url, url),
  );
  if (index < 0) return null;
  const [entry] = entries.splice(index, 1);
  return entry?.response ?? null;
}

/**
 * Waits for a taken early answer. Null when it failed without an answer (no network): the caller
 * then fetches as it always did, so the service worker's copies and the home's kept reads
 * (issue 12) answer an offline start exactly as before. The caller's abort signal still aborts.
 */
export function settleEarly(early: Promise<Response>, signal?: AbortSignal): Promise<Response | null> {
  const answer = early.catch(() => null);
  if (!signal) return answer;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    void answer.then((response) => {
      signal.removeEventListener('abort', abort);
      resolve(response);
    });
  });
}
