/**
 * Whose data the service worker may serve from its caches (decision 0045). The page writes the
 * signed-in learner and their token's expiry into a cache the worker reads (`parcours-owner`);
 * the worker keys its private caches (lesson media, users/me) by that learner, serves them only
 * before that expiry and never for an address typed in the address bar (vite.config.ts,
 * sw-owner.ts). A session that ends, for any reason, removes the mark and those caches.
 */
export const OWNER_CACHE = 'parcours-owner';
export const OWNER_KEY = '/__parcours/owner';
/** The worker's caches of one learner's data (vite.config.ts runtimeCaching). */
export const PRIVATE_CACHES = ['parcours-media', 'parcours-session'] as const;

export interface DeviceOwner {
  userId: string;
  /** The token's expiry, in the device's clock (ms). */
  expiresAt: number | null;
}

const hasCaches = () => typeof caches !== 'undefined';

export async function markOwner(owner: DeviceOwner): Promise<void> {
  if (!hasCaches()) return;
  const cache = await caches.open(OWNER_CACHE);
  await cache.put(
    OWNER_KEY,
    new Response(JSON.stringify(owner), { headers: { 'Content-Type': 'application/json' } }),
  );
}

/** The session is over: nobody's private copies are served, and they are gone. */
export async function forgetOwner(): Promise<void> {
  if (!hasCaches()) return;
  await caches.delete(OWNER_CACHE);
  await Promise.all(PRIVATE_CACHES.map((name) => caches.delete(name)));
}
