import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors';

/**
 * Tincan modules copied by the importer to `${filesDir}/tincan/<contextId>/<folder>-<hash>/`,
 * served read-only at `/api/tincan/<contextId>/...` (docs/content-format.md "Files"). A tenant
 * only serves its own modules: the first path segment must be the request's tenant. The folder
 * name carries a content hash, so the files can be cached for good.
 */
export async function registerTincan(app: FastifyInstance): Promise<void> {
  const root = app.filesDir ? path.resolve(app.filesDir, 'tincan') : null;
  if (!root || !existsSync(root)) return;
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      const rest = request.url.split('?')[0]?.replace(/^\/api\/tincan\//, '') ?? '';
      if (rest.split('/')[0] !== request.context.id) throw new ApiError(404, 'NOT_FOUND', 'No such module.');
    });
    await scope.register(fastifyStatic, {
      root,
      prefix: '/tincan/',
      // The api scope's reply.sendFile belongs to the files module.
      decorateReply: false,
      index: false,
      dotfiles: 'deny',
      cacheControl: false,
      setHeaders: (res) => res.setHeader('cache-control', 'public, max-age=31536000, immutable'),
    });
  });
}
