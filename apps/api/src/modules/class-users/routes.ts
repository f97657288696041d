import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { filterValue, filterValues, jsonApiQuerySchema, parseJsonApiQuery } from '../../plugins/jsonapi';
import { INCLUDES } from '../relations';
import { collection } from '../respond';
import { ownUserIds, scopeOf } from '../scope';
import { listClassUsers, membershipsValidUntil } from './repository';
import { sendCachedAnswer } from '../../lib/answer-cache';
import { toClassUserResource } from './serializer';
import { collectionOf } from '../../plugins/contract';
import { CLASS_TREE_INCLUDED, classResource, classUserResource } from '../../plugins/resources';

const query = jsonApiQuerySchema({
  filters: {
    userId: filterValue,
    classId: filterValue,
    role: filterValue,
    expired: z.enum(['true', 'false']),
  },
  sorts: ['createdAt'],
  includes: INCLUDES.classUsers,
  paginated: true,
});

export const classUserRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/class-users',
    {
      onRequest: app.auth.requireHomeUser,
      // Sent by the answer cache, which picks the encoding itself (lib/answer-cache.ts).
      compress: false,
      schema: {
        tags: ['classes'],
        summary:
          "The signed-in learner's class memberships (filter[userId] of someone else: administrators only).",
        querystring: query,
        response: { 200: collectionOf(classUserResource, [classResource, ...CLASS_TREE_INCLUDED]) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(app.db, request);
      // Only the filter the cache needs is read here: the whole query is parsed when the answer
      // is built (parsing it on every cached answer was ~10 % of this read's CPU; issue 32).
      const userIds = ownUserIds(scope.viewer, filterValues(request.query, 'userId'));
      const own = userIds.length === 1 && userIds[0] === scope.viewer.userId;
      const at = Date.parse(scope.viewer.now);
      // The home's read: served again from this process while the database's version stamps
      // say nothing changed and no class of the viewer has expired since (decision 0015).
      return sendCachedAnswer(app.db, request, reply, { viewer: scope.viewer, own, now: at }, async () => {
        const q = parseJsonApiQuery(request.query);
        const { rows, total } = await listClassUsers(app.db, scope.viewer, userIds, q);
        const document = await collection(scope, q, rows.map(toClassUserResource), total);
        return { document, validUntil: await membershipsValidUntil(app.db, scope.viewer, at) };
      });
    },
  );
};
