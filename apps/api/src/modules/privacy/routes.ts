import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import { notFound } from '../scope';
import { eraseLearner } from './erase';
import { learnerExport, learnerExportAnswer } from './export';

/**
 * A learner's data on request (issue 29 item 9, SPEC §2 data protection): the learner downloads
 * all of it as JSON from the account screen; a tenant administrator erases a learner.
 */
export interface PrivacyRoutesOptions {
  now?: () => Date;
  /** The outbox folder of mail written without SMTP: an erasure removes the mails naming the learner. */
  outboxDir?: string;
}

export const privacyRoutes: FastifyPluginAsyncZod<PrivacyRoutesOptions> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());

  app.get(
    '/users/me/data-export',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['users'],
        summary: "All of the signed-in user's data as one JSON document (GDPR access and portability).",
        querystring: z.strictObject({}),
        response: { 200: learnerExportAnswer },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const at = now();
      const data = await learnerExport(app.db, app.dbKind, request.context.id, user.id, at);
      return reply
        .header(
          'content-disposition',
          `attachment; filename="parcours-data-${at.toISOString().slice(0, 10)}.json"`,
        )
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(data);
    },
  );

  app.post(
    '/users/:id/erasure',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['users'],
        summary:
          'A tenant administrator erases a learner: personal data removed or made anonymous, the figures kept.',
        params: z.object({ id: z.string().min(1).max(200) }),
        body: z.strictObject({}).optional(),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const admin = currentUser(request);
      if (!admin.isAdmin) throw new ApiError(403, 'Forbidden', 'Only an administrator may erase a learner.');
      const target = await app.db
        .selectFrom('users')
        .select('id')
        .where('id', '=', request.params.id)
        .where('contextId', '=', request.context.id)
        .executeTakeFirst();
      if (!target) throw notFound('User');
      const isAdmin = await app.db
        .selectFrom('roleUsers')
        .select('id')
        .where('principalId', '=', target.id)
        .executeTakeFirst();
      if (isAdmin || target.id === admin.id)
        throw new ApiError(403, 'Forbidden', 'An administrator account is not erased this way.');
      await eraseLearner(app.db, app.dbKind, app.files, request.context.id, target.id, now(), opts.outboxDir);
      return reply.code(204).send(null);
    },
  );
};
