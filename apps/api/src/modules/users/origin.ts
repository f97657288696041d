import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import type { ContextRow } from '../contexts/repository';
import { isTenantHostname } from './repository';

/**
 * The origin that links in mails and SSO redirects point to. The Host header is
 * client-controlled, so it is trusted only when it is one of the tenant's registered hostnames
 * (otherwise a forged Host would send reset links to an attacker's site). Else PUBLIC_URL, else
 * the tenant's `hosts.app`, else the request origin of a loopback host (local demo).
 */
export async function publicOrigin(
  db: Db,
  request: FastifyRequest,
  context: ContextRow,
  publicUrl?: string,
): Promise<string> {
  const hostname = request.hostname.toLowerCase();
  const requestOrigin = `${request.protocol}://${request.host}`;
  if (await isTenantHostname(db, context.id, hostname)) return requestOrigin;
  if (publicUrl) return new URL(publicUrl).origin;
  const hosts = parseJson<{ app?: unknown }>(context.hosts, {});
  if (typeof hosts.app === 'string') {
    try {
      return new URL(hosts.app).origin;
    } catch {
      // A malformed stored host falls through.
    }
  }
  if (hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]') return requestOrigin;
  return 'http://localhost';
}
