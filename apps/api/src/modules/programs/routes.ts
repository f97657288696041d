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
import { findProgram, listProgramCourses, listPrograms } from './repository';
import { toProgramCourseResource, toProgramResource } from './serializer';

const listQuery = jsonApiQuerySchema({ filters: { id: filterValue }, sorts: ['name'], includes: INCLUDES.programs, paginated: true });
const oneQuery = jsonApiQuerySchema({ includes: INCLUDES.programs });
const programCoursesQuery = jsonApiQuerySchema({
  filters: { programId: filterValue, id: filterValue },
  sorts: ['order'],
  includes: INCLUDES.programCourses,
  paginated: true,
});
const params = z.object({ id: z.string().min(1) });

export const programRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/programs',
    {
      onRequest: app.auth.requireUser,
      schema: { tags: ['programs'], summary: "Programs of the user's classes (no drafts for learners).", querystring: listQuery, response: { 200: collectionDocumentSchema } },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const { rows, total } = await listPrograms(app.db, scope.viewer, q);
      return collection(scope, q, rows.map(toProgramResource), total);
    },
  );

  app.get(
    '/programs/:id',
    {
      onRequest: app.auth.requireUser,
      schema: { tags: ['programs'], summary: 'One program.', params, querystring: oneQuery, response: { 200: resourceDocumentSchema } },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const row = await findProgram(app.db, scope.viewer, request.params.id);
      if (!row) throw notFound('Program');
      return single(scope, q, toProgramResource(row));
    },
  );

  app.get(
    '/program-courses',
    {
      onRequest: app.auth.requireUser,
      schema: { tags: ['programs'], summary: 'Courses of visible programs, in order.', querystring: programCoursesQuery, response: { 200: collectionDocumentSchema } },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const { rows, total } = await listProgramCourses(app.db, scope.viewer, q);
      return collection(scope, q, rows.map(toProgramCourseResource), total);
    },
  );
};
