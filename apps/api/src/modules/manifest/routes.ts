import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/db';
import { registerTenant } from '../../plugins/tenant';
import { toContextAttributes } from '../contexts/service';
import { buildManifest } from './service';

/**
 * GET /manifest.webmanifest at the site root (where browsers expect it, and within the app's
 * scope): the manifest of the tenant answering on the request's Host. Registered outside /api,
 * so it resolves the tenant in its own scope; registered before the SPA fallback.
 */
export const manifestRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  registerTenant(app, { db });
  app.get('/manifest.webmanifest', { schema: { hide: true } }, async (request, reply) => {
    const manifest = buildManifest(toContextAttributes(request.context));
    return (
      reply
        .type('application/manifest+json; charset=utf-8')
        // Revalidated on each use: a tenant's new colours or icons show at the next install.
        .header('cache-control', 'no-cache')
        .header('vary', 'Host')
        .send(JSON.stringify(manifest))
    );
  });
};
