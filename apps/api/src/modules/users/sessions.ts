import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth';
import { writeTx } from '../lesson-pages/tx';

/**
 * POST /users/me/sign-out-everywhere (issue 29 item 3): every session of the user ends at once,
 * wherever it was opened. One instant, `tokens_valid_after`, revokes all of it: access tokens
 * (plugins/auth.ts), the module launch credentials issued before it (lrs/credentials.ts) and the
 * signed download URLs (files/signing.ts), as a password change does.
 */
export const sessionRoutes: FastifyPluginAsyncZod<{ now?: () => Date }> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());
  app.post(
    '/users/me/sign-out-everywhere',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['users'],
        summary:
          'Ends every session of the user: tokens, module launches and signed file links issued before now.',
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const iso = now().toISOString();
      await writeTx(app.db, app.dbKind, (trx) =>
        trx
          .updateTable('users')
          .set({ tokensValidAfter: iso, updatedAt: iso })
          .where('id', '=', user.id)
          .where('contextId', '=', request.context.id)
          .execute(),
      );
      return reply.code(204).send(null);
    },
  );
};
