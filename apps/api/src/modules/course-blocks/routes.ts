import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  collectionDocument,
  filterValue,
  jsonApiQuerySchema,
  parseJsonApiQuery,
  resolveIncludes,
  resourceDocument,
} from '../../plugins/jsonapi';
import { notFound, scopeOf } from '../scope';
import { blockRelations } from './relations';
import { termLinks, termsByIds, visibleBlocksByIds } from './repository';
import { toBlockResource, toTermResource } from './serializer';
import { collectionOf, documentOf } from '../../plugins/contract';
import { courseBlockResource, courseTermResource } from '../../plugins/resources';

const params = z.object({ id: z.string().min(1) });
const oneQuery = jsonApiQuerySchema({ includes: ['terms'] });
const termsQuery = jsonApiQuerySchema({ filters: { id: filterValue } });

/** Node-mode reads of docs/product.md §7: `course-blocks/{id}` (include terms) and `course-terms`. */
export const courseBlockRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/course-blocks/:id',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['courses'],
        summary: "A block of the learner's courses: its public view, never its solution.",
        params,
        querystring: oneQuery,
        response: { 200: documentOf(courseBlockResource, [courseTermResource]) },
      },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const [row] = await visibleBlocksByIds(app.db, scope.viewer, [request.params.id]);
      if (!row) throw notFound('Block');
      const links = await termLinks(app.db, [row.id]);
      const resource = toBlockResource(
        row,
        links.map((l) => l.termId),
      );
      return resourceDocument(resource, await resolveIncludes(scope, blockRelations, [resource], q.include));
    },
  );

  app.get(
    '/course-terms',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['courses'],
        summary: 'Glossary terms of the tenant, by id (`filter[id]=a,b`).',
        querystring: termsQuery,
        response: { 200: collectionOf(courseTermResource) },
      },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const rows = await termsByIds(app.db, scope.viewer, q.filters.id ?? []);
      return collectionDocument(rows.map(toTermResource), [], rows.length, q.page);
    },
  );
};
