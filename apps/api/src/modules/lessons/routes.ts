import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  collectionDocumentSchema,
  filterValue,
  jsonApiQuerySchema,
  parseJsonApiQuery,
  resourceDocumentSchema,
} from '../../plugins/jsonapi';
import { INCLUDES } from '../relations';
import { collection, single } from '../respond';
import { notFound, ownUserIds, scopeOf } from '../scope';
import { findLesson, listLessons } from './repository';
import { lessonResources } from './service';

const listQuery = jsonApiQuerySchema({
  filters: {
    userId: filterValue,
    classId: filterValue,
    contextId: filterValue,
    programCourseId: filterValue,
    classProgramId: filterValue,
    certificationRef: z.literal('notnull'),
  },
  sorts: ['startedAt', 'createdAt'],
  includes: INCLUDES.lessons,
  paginated: true,
});
const oneQuery = jsonApiQuerySchema({ includes: INCLUDES.lessons });
const params = z.object({ id: z.string().min(1) });

export const lessonRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/lessons',
    {
      onRequest: app.auth.requireUser,
      schema: { tags: ['lessons'], summary: "The signed-in learner's lessons, with tree and progression.", querystring: listQuery, response: { 200: collectionDocumentSchema } },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const userIds = ownUserIds(scope.viewer, q.filters.userId);
      const { rows, total } = await listLessons(app.db, scope.viewer, userIds, q);
      return collection(scope, q, await lessonResources(app.db, rows), total);
    },
  );

  app.get(
    '/lessons/:id',
    {
      onRequest: app.auth.requireUser,
      schema: { tags: ['lessons'], summary: 'One of the learner’s lessons (another user’s id: 404).', params, querystring: oneQuery, response: { 200: resourceDocumentSchema } },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const row = await findLesson(app.db, scope.viewer, request.params.id);
      if (!row) throw notFound('Lesson');
      const [resource] = await lessonResources(app.db, [row]);
      if (!resource) throw notFound('Lesson');
      return single(scope, q, resource);
    },
  );
};
