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
import { findClass, listClasses } from './repository';
import { toClassResource } from './serializer';

const listQuery = jsonApiQuerySchema({
  filters: { id: filterValue },
  sorts: ['startAt', 'name'],
  includes: INCLUDES.classes,
  paginated: true,
});
const oneQuery = jsonApiQuerySchema({ includes: INCLUDES.classes });
const params = z.object({ id: z.string().min(1) });

export const classRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/classes',
    {
      onRequest: app.auth.requireUser,
      schema: { tags: ['classes'], summary: 'Classes the user belongs to.', querystring: listQuery, response: { 200: collectionDocumentSchema } },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const { rows, total } = await listClasses(app.db, scope.viewer, q);
      return collection(scope, q, rows.map(toClassResource), total);
    },
  );

  app.get(
    '/classes/:id',
    {
      onRequest: app.auth.requireUser,
      schema: { tags: ['classes'], summary: 'One class the user belongs to.', params, querystring: oneQuery, response: { 200: resourceDocumentSchema } },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const row = await findClass(app.db, scope.viewer, request.params.id);
      if (!row) throw notFound('Class');
      return single(scope, q, toClassResource(row));
    },
  );
};
