/**
 * Which reads index.html starts before any script arrives (issue 11, decision 0024): the ones
 * the first screen would otherwise ask for only after the scripts, the tenant, the user and the
 * screen's code. Pure, so the rule is tested here; app/early-start.ts runs it in the page, and
 * the API client takes the answers (lib/early-requests.ts). Built into index.html: imports stay
 * tiny and framework-free.
 */
import { paramsOf } from '@parcours/domain/routes';
import { classUsersQuery, lessonsQuery } from '../features/home/api/home-queries';
import { currentPagePath } from '../features/player/api/lesson-page';
import { DEFAULT_API_BASE, normaliseBase } from '../lib/api-base';
import { buildQuery, pageQuery } from '../lib/query-string';
import { SANDBOX_TOKEN } from '../lib/sandbox';

export interface EarlyInput {
  /** The page's origin and address (window.location). */
  origin: string;
  pathname: string;
  search: string;
  /** What local storage holds (null: nothing, or storage refused). */
  token: string | null;
  userId: string | null;
  /** A base path stored on this device (lib/api-base.ts `parcours.apiBasePath`). */
  apiBasePath: string | null;
  /** The tenant context kept from the last start (JSON, lib/tenant.ts). */
  storedContext: string | null;
  now: number;
}

/**
 * Whether the last known tenant moves the API calls to another base once it loads: its API host
 * on this origin with another path (lib/api-base.ts; a host on another origin is ignored there).
 */
function movesApiBase(storedContext: string | null, origin: string): boolean {
  if (!storedContext) return false;
  try {
    const context = JSON.parse(storedContext) as { attributes?: { hosts?: { api?: unknown } } };
    const host = context?.attributes?.hosts?.api;
    if (typeof host !== 'string' || !host) return false;
    const url = new URL(host, origin);
    return url.origin === origin && normaliseBase(url.pathname) !== DEFAULT_API_BASE;
  } catch {
    return false;
  }
}

/** The URLs to GET now, in the order the screen needs them. */
export function planEarlyRequests(input: EarlyInput): string[] {
  const { pathname, token, userId } = input;
  // Only the default same-origin base: a base stored on the device is support's configuration.
  if (input.apiBasePath) return [];
  // Sandbox mode (docs/product.md §6): nobody to load. /reset/: the stored token is not checked (docs/product.md §2).
  if (token === SANDBOX_TOKEN || pathname.startsWith('/reset/')) return [];
  // A sign-in link (idT/idU) replaces the stored token during boot: what was stored is not asked.
  const params = new URLSearchParams(input.search);
  if (params.has('idT') || params.has('idU')) return [];
  const api = (path: string, query: Parameters<typeof buildQuery>[0] = {}) =>
    `${DEFAULT_API_BASE}/${path}${buildQuery(query)}`;
  const urls = [api('contexts/current')];
  if (!token) return urls;
  urls.push(api('users/me'));
  // Once the tenant is known its API host may be another base: the screen's reads would go there.
  if (movesApiBase(input.storedContext, input.origin)) return urls;
  if (pathname === '/') {
    if (userId) urls.push(api('lessons', { ...lessonsQuery(userId), ...pageQuery(1) }));
    urls.push(api('class-users', { ...classUsersQuery(false), ...pageQuery(1) }));
  }
  // The player's paths, as the route table writes them (packages/domain/src/routes.ts).
  const player = paramsOf('/session/:id/page/:pageId', pathname) ?? paramsOf('/session/:id', pathname);
  const lessonId = player?.id || null;
  const pageId = player?.pageId ?? null;
  if (lessonId) urls.push(api(currentPagePath(lessonId), { noCache: input.now, pageId }));
  return urls;
}
