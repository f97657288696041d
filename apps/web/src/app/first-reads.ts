/**
 * A signed-in screen's loader in the browser (decisions 0030, 0060): the screen renders once,
 * whole, with its first reads in the query cache, instead of rendering "connecting", then a
 * spinner, then again as each read comes. It waits for the user load (already on its way from
 * boot) and the route's reads; the wait is bounded: past it, the screen renders as before, with
 * its "connecting" and loading states, and a read that failed is the screen's to show.
 */
import { isSandbox } from '../lib/sandbox';
import { settledSession } from '../lib/session';
import { getToken } from '../lib/storage';
import type { ReadsContext, RouteDef } from './route-meta';

/** Longest wait before rendering anyway (a slow user load, a stalled read). */
export const FIRST_READS_WAIT_MS = 2_000;

export function firstReadsLoader(
  def: RouteDef,
  reads: ((context: ReadsContext) => Promise<unknown>) | undefined,
  waitMs = FIRST_READS_WAIT_MS,
) {
  return async (params: ReadsContext['params'], search: string): Promise<null> => {
    // Redirects and visits without a stored token have nothing to wait for (the gate sends them on).
    if (def.redirectTo || getToken() === null || isSandbox()) return null;
    // Offline, a user load without a kept copy waits for the network's return: nothing to wait for.
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return null;
    const ready = settledSession().then(async (session) => {
      const userId = session.user?._id;
      // Missing required data: the gate comes first (RouteGate), not the screen.
      if (session.status !== 'authenticated' || !userId || session.user?.profile.needsRequiredDatas) return;
      if (!reads) return;
      const { queryClient } = await import('../lib/query-client');
      await reads({ client: queryClient, userId, params, search, server: false });
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([ready.catch(() => undefined), late]);
    clearTimeout(timer);
    return null;
  };
}
