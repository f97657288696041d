import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db';
import { findContextByHostname, findGenericContext } from '../modules/contexts/repository';
import type { ContextRow } from '../modules/contexts/repository';
import { ApiError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant of the request (docs/api.md "Tenant resolution"). */
    context: ContextRow;
  }
}

export interface TenantOptions {
  db: Db;
  /** How long a hostname → tenant answer is reused; short so content imports show up quickly. */
  ttlMs?: number;
}

// Host headers are client-controlled: the cache is bounded so random names cannot grow it.
const MAX_ENTRIES = 1000;

export function normaliseHostname(hostname: string): string {
  return hostname.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * Resolves `request.context` for every request of the scope it is registered in (the /api
 * scope). Each API process keeps its own short cache, which is safe because tenants change only
 * on content import.
 */
export function registerTenant(app: FastifyInstance, options: TenantOptions): void {
  const resolve = tenantResolver(options);
  app.decorateRequest('context', null as unknown as ContextRow);
  app.addHook('onRequest', async (request) => {
    request.context = await resolve(normaliseHostname(request.hostname));
  });
}

/**
 * The tenant answering on a (normalised) hostname, cached `ttlMs`: the same row object is given
 * back while cached, a new one after, even when nothing changed (the web app's pages are found
 * again by the tenant's content then, plugins/web-app.ts).
 */
export function tenantResolver({
  db,
  ttlMs = 30_000,
}: TenantOptions): (hostname: string) => Promise<ContextRow> {
  const cache = new Map<string, { row: ContextRow; expires: number }>();

  async function resolve(hostname: string): Promise<ContextRow> {
    const now = Date.now();
    const hit = cache.get(hostname);
    if (hit && hit.expires > now) return hit.row;
    const row = (await findContextByHostname(db, hostname)) ?? (await findGenericContext(db));
    if (!row) throw new ApiError(404, 'NOT_FOUND', 'No tenant answers on this host.');
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(hostname, { row, expires: now + ttlMs });
    return row;
  }
  return resolve;
}
