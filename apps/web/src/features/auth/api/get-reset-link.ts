/**
 * GET users/reset/{token}: the reset screen loads its link first (docs/product.md §7). 401 means invalid
 * or used, 403 expired (docs/product.md §8 "user load via link"). A plain call: the screen has no other
 * server state, so it does not need the query cache.
 */
import { apiFetch } from '../../../lib/api-client';

export interface ResetLink {
  userId: string;
  email: string;
  displayName: string;
  /** Only the 6-character minimum applies (invitation-code account on a simple-password tenant). */
  simplePassword: boolean;
}

export function getResetLink(token: string, signal?: AbortSignal): Promise<ResetLink> {
  return apiFetch<ResetLink>(`users/reset/${encodeURIComponent(token)}`, {
    token: null,
    ownUnauthorized: true,
    // Never a cached answer: a link used a minute ago must read as used.
    query: { noCache: Date.now() },
    ...(signal ? { signal } : {}),
  });
}
