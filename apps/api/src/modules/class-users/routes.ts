import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  collectionDocumentSchema,
  filterValue,
  jsonApiQuerySchema,
  parseJsonApiQuery,
} from '../../plugins/jsonapi';
import { INCLUDES } from '../relations';
import { collection } from '../respond';
import { ownUserIds, scopeOf } from '../scope';
import { listClassUsers } from './repository';
import { toClassUserResource } from './serializer';

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
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['classes'],
        summary:
          "The signed-in learner's class memberships (filter[userId] of someone else: administrators only).",
        querystring: query,
        response: { 200: collectionDocumentSchema },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const userIds = ownUserIds(scope.viewer, q.filters.userId);
      const { rows, total } = await listClassUsers(app.db, scope.viewer, userIds, q);
      const doc = await collection(scope, q, rows.map(toClassUserResource), total);
      // The home's read: plain JSON.stringify rather than the response schema's serialiser, whose
      // check of every included resource cost more than the JSON itself (decision 0010). The
      // document is built by our own serialisers to that schema, which still documents the route.
      return reply.serializer(JSON.stringify).send(doc);
    },
  );
};
