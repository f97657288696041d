/**
 * The one door to the API (docs/architecture.md §4): same-origin `/api`, Bearer token from storage,
 * JSON bodies, errors thrown as ApiError whose catalogue code is read by the domain's rules.
 */
import { readErrorCode, type ErrorCode } from '@parcours/domain/errors';
import { apiBase, DEFAULT_API_BASE } from './api-base';
import { SANDBOX_TOKEN } from './sandbox';
import { settleEarly, takeEarlyResponse } from './early-requests';
import { API_ACCEPT, buildQuery, type QueryValue } from './query-string';
import { requestScope } from './request-scope';
import { getToken } from './storage';
import { noteStamp, STAMP_HEADER, stampFor } from './write-stamp';

/** The default base; calls use `apiBase()` (docs/product.md §7: from the tenant's API host, see api-base.ts). */
export const API_BASE = DEFAULT_API_BASE;

export class ApiError extends Error {
  readonly status: number;
  /** The parsed error document; the domain's readErrorCode looks here for the code. */
  readonly body: unknown;
  readonly path: string;

  constructor(status: number, body: unknown, path: string) {
    super(`API ${status} on ${path}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.path = path;
  }

  get code(): ErrorCode | null {
    return readErrorCode(this.body);
  }
}

/** `token` is the one the refused call carried: a 401 for a token already replaced is old news. */
type UnauthorizedHandler = (path: string, token: string | null) => void;
let onUnauthorized: UnauthorizedHandler | null = null;

/** The app installs what a 401 does (docs/product.md §2: back to /login); the client stays UI-agnostic. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  onUnauthorized = handler;
}

/** The token is known to be over without a call (its `exp` passed, decision 0044): same path as a 401. */
export function reportUnauthorized(path: string, token: string | null): void {
  onUnauthorized?.(path, token);
}

/**
 * Calls whose 401 is an answer for the caller, not an expired session: `users/me` (docs/product.md §2)
 * decides the session state itself, and `users/login` answers a wrong password with a 401
 * that the sign-in form shows.
 */
const OWN_401 = new Set(['users/me', 'users/login']);

export { buildQuery, type QueryValue } from './query-string';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Overrides the stored token (e.g. a token from a link being checked). */
  token?: string | null;
  /**
   * The caller reads a 401 itself (a reset link's "invalid or expired"), so it must not end the
   * session and send the browser to /login like an expired token would.
   */
  ownUnauthorized?: boolean;
}

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `path` is relative to /api, without a leading slash: 'users/me', 'class-users'. */
export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: API_ACCEPT };
  // On the server (decision 0046): the fetch of the request being drawn, which reaches the API
  // in-process and carries that learner's token itself (lib/request-scope.ts). Never in a browser.
  const scoped = requestScope()?.fetch;
  const stored = scoped ? null : options.token === undefined ? getToken() : options.token;
  // The sandbox marker (docs/product.md §6) is no credential: never sent as a bearer token.
  const token = stored === SANDBOX_TOKEN ? null : stored;
  if (token) headers.Authorization = `Bearer ${token}`;
  // Read-your-writes (decision 0059): the newest stamp a write of this session answered with.
  const stamp = scoped ? null : stampFor(token);
  if (stamp) headers[STAMP_HEADER] = stamp;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const url = `${apiBase()}/${path}${buildQuery(options.query ?? {})}`;
  const method = options.method ?? 'GET';
  // Issue 11: the first screen's reads were started by index.html's inline script, in parallel
  // with the scripts (lib/early-requests.ts); the same read takes that answer, once.
  const early = method === 'GET' && !scoped ? takeEarlyResponse(url, token) : null;
  const response =
    (early && (await settleEarly(early, options.signal))) ??
    (await (scoped ?? fetch)(url, { method, headers, body, signal: options.signal }));
  if (!scoped) noteStamp(token, response.headers.get(STAMP_HEADER));
  const payload = await parseBody(response);
  if (!response.ok) {
    if (response.status === 401 && !scoped && !OWN_401.has(path) && !options.ownUnauthorized)
      onUnauthorized?.(path, token);
    throw new ApiError(response.status, payload, path);
  }
  return payload as T;
}
