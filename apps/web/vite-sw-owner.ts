/**
 * The service worker's rule for one learner's copies (decision 0045, issue 29 R3-06): a Workbox
 * plugin on the routes that keep private answers (`/api/files/`, `/api/users/me`). Workbox-build
 * writes its methods into the generated worker as text, so they use nothing from outside: the
 * names below are repeated from lib/device-owner.ts, which writes the mark they read.
 *
 * - The cache key carries the learner of the mark (`?__owner=<id>`; the query string of the
 *   request — a signed URL's signature — is dropped, as `ignoreSearch` did): a copy kept for A
 *   is never the answer to B, whose key differs.
 * - A copy is served only while the mark's token has not expired: a session that ended without
 *   the app seeing it (the tab closed) serves nothing, before the app even starts.
 * - Never for an address typed or opened in the tab (a navigation): the server decides there, as
 *   online it would answer 401 to the next person of a shared device.
 * - Nothing is kept without a learner, nor for a navigation, nor once the learner it was fetched
 *   for is not the device's any more.
 */
import type { WorkboxPlugin } from 'workbox-core';

interface OwnerMark {
  userId?: unknown;
  expiresAt?: unknown;
}

/** The tenant's context, kept once whatever the query string (the page's `noCache=keep` read). */
export const withoutSearchPlugin: WorkboxPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => {
    const url = new URL(request.url);
    url.search = '';
    return url.href;
  },
};

export const ownerPlugin: WorkboxPlugin = {
  // Arrow functions: workbox-build's stringifier turns async methods into invalid code.
  cacheKeyWillBeUsed: async ({ request }) => {
    const found = await caches.match('/__parcours/owner', { cacheName: 'parcours-owner' });
    const mark = (found ? await found.json().catch(() => null) : null) as OwnerMark | null;
    const valid =
      mark !== null &&
      typeof mark.userId === 'string' &&
      (typeof mark.expiresAt !== 'number' || mark.expiresAt > Date.now());
    const url = new URL(request.url);
    url.search = '';
    url.searchParams.set('__owner', valid ? (mark.userId as string) : '-');
    return url.href;
  },
  // `request` is the cache key here; the page's own request is the event's.
  cachedResponseWillBeUsed: async ({ request, cachedResponse, event }) => {
    if (!cachedResponse) return null;
    if ((event as Event & { request?: Request }).request?.mode === 'navigate') return null;
    const owner = new URL(request.url).searchParams.get('__owner');
    return owner && owner !== '-' ? cachedResponse : null;
  },
  cacheWillUpdate: async ({ request, response }) => {
    if (request.mode === 'navigate' || response.status !== 200) return null;
    const found = await caches.match('/__parcours/owner', { cacheName: 'parcours-owner' });
    const mark = (found ? await found.json().catch(() => null) : null) as OwnerMark | null;
    const valid =
      mark !== null &&
      typeof mark.userId === 'string' &&
      (typeof mark.expiresAt !== 'number' || mark.expiresAt > Date.now());
    return valid ? response : null;
  },
  // `request` is the cache key. The session may end while a file is on its way (a lesson's
  // pictures still loading as the token is refused): the check above passed, the end then deleted
  // the caches, and the put re-created one with this learner's copy. A copy whose learner is not
  // the device's any more goes as soon as it is put.
  cacheDidUpdate: async ({ cacheName, request }) => {
    const found = await caches.match('/__parcours/owner', { cacheName: 'parcours-owner' });
    const mark = (found ? await found.json().catch(() => null) : null) as OwnerMark | null;
    const owner = new URL(request.url).searchParams.get('__owner');
    const valid =
      mark !== null &&
      mark.userId === owner &&
      (typeof mark.expiresAt !== 'number' || mark.expiresAt > Date.now());
    if (!valid) await (await caches.open(cacheName)).delete(request);
  },
};
