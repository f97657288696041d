import type { FastifyInstance, FastifyRequest } from 'fastify';
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
  const { cached, resolve } = tenantLookup(options);
  app.decorateRequest('context', null as unknown as ContextRow);
  // A callback hook, answered in the same turn when the tenant is cached (nearly every request):
  // an async hook costs a promise and a turn of the microtask queue on every /api request.
  app.addHook('onRequest', (request, _reply, done) => {
    const hostname = hostnameOf(request);
    const row = cached(hostname);
    if (row) {
      request.context = row;
      return done();
    }
    resolve(hostname).then((found) => {
      request.context = found;
      done();
    }, done);
  });
}

/** The last Host of a connection and its normalised hostname. */
const LAST_HOST = Symbol('parcours.lastHost');
type RememberingSocket = { [LAST_HOST]?: { host: string; hostname: string } } | undefined;

/**
 * The request's normalised hostname. A connection sends the same Host on each request: while it
 * does, the hostname made from it the last time is given back, the same string, whose hash the
 * tenant cache has already computed (issue 38 item 4). `request.hostname` is made from
 * `request.host` alone (the Host header, or X-Forwarded-Host behind a trusted proxy).
 */
function hostnameOf(request: FastifyRequest): string {
  const host = request.host;
  const socket = request.raw.socket as RememberingSocket;
  const last = socket?.[LAST_HOST];
  if (last?.host === host) return last.hostname;
  const hostname = normaliseHostname(request.hostname);
  if (socket) socket[LAST_HOST] = { host, hostname };
  return hostname;
}

interface TenantLookup {
  /** The cached tenant of a (normalised) hostname, if still fresh. */
  cached(hostname: string): ContextRow | undefined;
  resolve(hostname: string): Promise<ContextRow>;
}

function tenantLookup({ db, ttlMs = 30_000 }: TenantOptions): TenantLookup {
  const cache = new Map<string, { row: ContextRow; expires: number }>();
  const cached = (hostname: string, now = Date.now()) => {
    const hit = cache.get(hostname);
    return hit && hit.expires > now ? hit.row : undefined;
  };
  return {
    cached,
    async resolve(hostname) {
      const now = Date.now();
      const hit = cached(hostname, now);
      if (hit) return hit;
      const row = (await findContextByHostname(db, hostname)) ?? (await findGenericContext(db));
      if (!row) throw new ApiError(404, 'NOT_FOUND', 'No tenant answers on this host.');
      if (cache.size >= MAX_ENTRIES) cache.clear();
      cache.set(hostname, { row, expires: now + ttlMs });
      return row;
    },
  };
}

/**
 * The tenant answering on a (normalised) hostname, cached `ttlMs`: the same row object is given
 * back while cached, a new one after, even when nothing changed (the web app's pages are found
 * again by the tenant's content then, plugins/web-app.ts).
 */
export function tenantResolver(options: TenantOptions): (hostname: string) => Promise<ContextRow> {
  return tenantLookup(options).resolve;
}
