import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  collectionDocumentSchema,
  filterValue,
  jsonApiQuerySchema,
  parseJsonApiQuery,
  resourceDocumentSchema,
} from '../../plugins/jsonapi';
import { toClassProgramResource } from '../classes/serializer';
import { INCLUDES } from '../relations';
import { collection, single } from '../respond';
import { notFound, scopeOf } from '../scope';
import { findClassProgram, listClassPrograms } from './repository';

const listQuery = jsonApiQuerySchema({
  filters: { classId: filterValue, id: filterValue },
  sorts: ['order'],
  includes: INCLUDES.classPrograms,
  paginated: true,
});
const oneQuery = jsonApiQuerySchema({ includes: INCLUDES.classPrograms });
const params = z.object({ id: z.string().min(1) });

export const classProgramRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/class-programs',
    {
      onRequest: app.auth.requireUser,
      schema: { tags: ['classes'], summary: "Programs of the user's classes.", querystring: listQuery, response: { 200: collectionDocumentSchema } },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const { rows, total } = await listClassPrograms(app.db, scope.viewer, q);
      return collection(scope, q, rows.map(toClassProgramResource), total);
    },
  );

  app.get(
    '/class-programs/:id',
    {
      onRequest: app.auth.requireUser,
      schema: { tags: ['classes'], summary: 'One class program.', params, querystring: oneQuery, response: { 200: resourceDocumentSchema } },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const row = await findClassProgram(app.db, scope.viewer, request.params.id);
      if (!row) throw notFound('Class program');
      return single(scope, q, toClassProgramResource(row));
    },
  );
};
