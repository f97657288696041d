import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { contentTypeOf } from '../files/content-types';
import { sendStored } from '../files/serve';
import { isSafeKey } from '../files/store';
import { ApiError } from './errors';

/**
 * Tincan modules copied by the importer to `${filesDir}/tincan/<contextId>/<folder>-<hash>/`,
 * served read-only at `/api/tincan/<contextId>/...` (docs/content-format.md "Files"). A tenant
 * only serves its own modules: the first path segment must be the request's tenant. The folder
 * name carries a content hash, so the files can be cached for good.
 */
/**
 * A module is someone else's program: it brings its own inline scripts and styles, which the
 * app's CSP ('self' scripts only) blocks. Its pages get their own policy instead: scripts and
 * styles of the module allowed, and `sandbox` without `allow-same-origin`, so the module runs in
 * an opaque origin — it cannot read the app's storage (the learner's token) or call the API as
 * the learner; it can still post its messages (action:next, its score) to the player.
 */
export const MODULE_CSP = [
  'sandbox allow-scripts allow-forms allow-popups allow-modals',
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'self'",
].join('; ');

export async function registerTincan(app: FastifyInstance): Promise<void> {
  const store = app.files;
  if (store?.kind === 's3') {
    // Modules in the bucket (issue 30): streamed by the same rules as from the folder below.
    await app.register(async (scope) => {
      scope.get('/tincan/*', { schema: { hide: true } }, async (request, reply) => {
        const rest = request.url.split('?')[0]?.replace(/^\/api\/tincan\//, '') ?? '';
        let key: string;
        try {
          key = `tincan/${decodeURIComponent(rest)}`;
        } catch {
          throw new ApiError(404, 'NOT_FOUND', 'No such module.');
        }
        const segments = rest.split('/');
        if (segments[0] !== request.context.id || !isSafeKey(key) || segments.some((s) => s.startsWith('.')))
          throw new ApiError(404, 'NOT_FOUND', 'No such module.');
        reply
          .header('content-security-policy', MODULE_CSP)
          .header('content-type', contentTypeOf(key))
          .header('cache-control', 'public, max-age=31536000, immutable');
        if (!(await sendStored(request, reply, store, key)))
          throw new ApiError(404, 'NOT_FOUND', 'No such module.');
        return reply;
      });
    });
    return;
  }
  const root = app.filesDir ? path.resolve(app.filesDir, 'tincan') : null;
  if (!root || !existsSync(root)) return;
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      const rest = request.url.split('?')[0]?.replace(/^\/api\/tincan\//, '') ?? '';
      if (rest.split('/')[0] !== request.context.id) throw new ApiError(404, 'NOT_FOUND', 'No such module.');
      reply.header('content-security-policy', MODULE_CSP);
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
