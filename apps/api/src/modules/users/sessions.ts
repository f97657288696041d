import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth';
import { writeTx } from '../../db/tx';
import { clearHtmlSession } from '../../plugins/html-session';

/**
 * POST /users/me/sign-out-everywhere (issue 29 item 3): every session of the user ends at once,
 * wherever it was opened. One instant, `tokens_valid_after`, revokes all of it: access tokens
 * (plugins/auth.ts), the module launch credentials issued before it (lrs/credentials.ts) and the
 * signed download URLs (files/signing.ts), as a password change does.
 */
export const sessionRoutes: FastifyPluginAsyncZod<{ now?: () => Date }> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());

  /**
   * POST /users/me/sign-out (issue 36, decision 0057): this session ends, on the server: its token
   * and every renewal of it are refused from now on, and this browser's HTML cookie goes. The
   * learner's other devices stay signed in (sign-out-everywhere ends those). The row lives as long
   * as the session could have (its sign-in plus SESSION_MAX_HOURS); older rows go with each new one.
   */
  app.post(
    '/users/me/sign-out',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['users'],
        summary:
          "Ends this session: its token and the token's renewals are refused from now on, and the HTML cookie is cleared. Other devices stay signed in.",
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const { session } = currentUser(request);
      if (session) {
        // Tokens live on the real clock (their verification reads it), not the tests' injected one.
        const current = new Date().toISOString();
        const expiresAt = new Date(app.auth.sessionEnd(session) * 1000).toISOString();
        await writeTx(app.db, app.dbKind, async (trx) => {
          await trx.deleteFrom('endedSessions').where('expiresAt', '<', current).execute();
          await trx
            .insertInto('endedSessions')
            .values({ id: session.id, userId: request.user!.id, expiresAt })
            .onConflict((oc) => oc.column('id').doNothing())
            .execute();
        });
      }
      clearHtmlSession(request, reply);
      return reply.code(204).header('cache-control', 'no-store').send(null);
    },
  );

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
