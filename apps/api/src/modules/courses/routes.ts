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
import { notFound, scopeOf } from '../scope';
import { findCourse, listCompetencies } from './repository';
import { toCompetencyResource, toCourseResource } from './serializer';

const oneQuery = jsonApiQuerySchema({ includes: INCLUDES.courses });
const competenciesQuery = jsonApiQuerySchema({ filters: { id: filterValue }, sorts: ['order'], paginated: true });
const params = z.object({ id: z.string().min(1) });

export const courseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/courses/:id',
    {
      onRequest: app.auth.requireUser,
      schema: { tags: ['courses'], summary: 'One course of the user’s programs or lessons.', params, querystring: oneQuery, response: { 200: resourceDocumentSchema } },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const row = await findCourse(app.db, scope.viewer, request.params.id);
      if (!row) throw notFound('Course');
      return single(scope, q, toCourseResource(row));
    },
  );

  app.get(
    '/course-competencies',
    {
      onRequest: app.auth.requireUser,
      schema: { tags: ['courses'], summary: 'Competency tree of the tenant.', querystring: competenciesQuery, response: { 200: collectionDocumentSchema } },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const { rows, total } = await listCompetencies(app.db, scope.viewer, q);
      return collection(scope, q, rows.map(toCompetencyResource), total);
    },
  );
};
