import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth';
import { fetchAuthToken } from './cmi5';
import { createLaunch, packagesOriginOf } from './launches';

/**
 * The app origin's package routes (issue 31, docs/api.md "Packages"): the player's launch, and
 * the cmi5 fetch URL an AU calls from the packages origin. Everything else a package does goes
 * through the packages origin (modules/packages/origin.ts) or the LRS (/api/xapi, decision 0049).
 */
export const packageRoutes: FastifyPluginAsyncZod<{
  packagesOrigin: string | null;
  packagesPort: number;
  now?: () => Date;
}> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());
  const tags = ['packages'];

  app.post(
    '/packages/launches',
    {
      onRequest: [app.auth.requireUser],
      schema: {
        tags,
        summary:
          "A launch of a package page: the bridge's URL on the packages origin, its secret in the fragment.",
        body: z.strictObject({
          lessonId: z.string().min(1).max(200),
          pageId: z.string().min(1).max(200),
          launch: z.string().min(1).max(200),
        }),
      },
    },
    async (request) =>
      createLaunch(
        app.db,
        app.dbKind,
        request,
        currentUser(request).id,
        request.body,
        packagesOriginOf(request, opts.packagesOrigin, opts.packagesPort),
        now(),
      ),
  );

  // cmi5 §8.2: a POST from the AU's origin, any body; 200 with JSON even for an error.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, _body, done) =>
      done(null, undefined),
    );
    scope.addHook('onRequest', async (_request, reply) => {
      // The token is the credential; no cookie is read: any origin may call it.
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-allow-methods', 'POST, OPTIONS');
      reply.header('access-control-allow-headers', 'Content-Type');
      reply.header('cache-control', 'no-store');
    });
    const params = z.strictObject({ token: z.string().max(200) });
    scope.options('/packages/fetch/:token', { schema: { hide: true } }, async (_request, reply) =>
      reply.code(204).send(),
    );
    scope.post(
      '/packages/fetch/:token',
      { schema: { tags, summary: 'cmi5 fetch URL: the auth token, once.', params } },
      async (request) => {
        const { token } = request.params as { token: string };
        if (!/^[A-Za-z0-9_-]{20,100}$/.test(token))
          return { 'error-code': '2', 'error-text': 'This fetch URL is unknown.' };
        return fetchAuthToken(app.db, app.dbKind, request.context.id, token, now());
      },
    );
  });
};
