import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Relations, Resource } from '../../plugins/jsonapi';
import {
  collectionDocument,
  filterValue,
  jsonApiQuerySchema,
  parseJsonApiQuery,
  resolveIncludes,
  resourceDocument,
} from '../../plugins/jsonapi';
import { blockRelations } from '../course-blocks/relations';
import { termLinks, visibleBlocksByIds } from '../course-blocks/repository';
import { toBlockResource } from '../course-blocks/serializer';
import type { Scope } from '../scope';
import { groupBy, notFound, scopeOf } from '../scope';
import { courseNodeGuidanceRoutes } from './guidance';
import { learnerLimits } from './limits';
import { childrenOf, listNodes, nodesByIds } from './repository';
import { toNodeResource } from './serializer';
import { collectionOf, documentOf } from '../../plugins/contract';
import { courseBlockResource, courseNodeResource, courseTermResource } from '../../plugins/resources';

const ref = (p: Resource, key: string) => {
  const v = p.attributes[key];
  return typeof v === 'string' ? v : null;
};

/** Node mode (docs/product.md §2 /render/node/{id}): parent, children and their blocks, with the same visibility as direct reads. */
const relations: Relations<Scope> = {
  ...blockRelations,
  'course-nodes': {
    parent: {
      many: false,
      async load({ db, viewer }, parents) {
        const byId = new Map(
          (
            await nodesByIds(
              db,
              viewer,
              parents.flatMap((p) => ref(p, 'parentId') ?? []),
            )
          ).map((r) => [r.id, toNodeResource(r)]),
        );
        return new Map(
          parents.map((p) => [p.id, [byId.get(ref(p, 'parentId') ?? '')].filter((r): r is Resource => !!r)]),
        );
      },
    },
    children: {
      many: true,
      async load({ db, viewer }, parents) {
        const byParent = groupBy(
          await childrenOf(
            db,
            viewer,
            parents.map((p) => p.id),
          ),
          (r) => r.parentId ?? '',
        );
        return new Map(parents.map((p) => [p.id, (byParent.get(p.id) ?? []).map(toNodeResource)]));
      },
    },
    block: {
      many: false,
      async load({ db, viewer }, parents) {
        const rows = await visibleBlocksByIds(db, viewer, [
          ...new Set(parents.flatMap((p) => ref(p, 'blockId') ?? [])),
        ]);
        const links = groupBy(
          await termLinks(
            db,
            rows.map((r) => r.id),
          ),
          (l) => l.blockId,
        );
        const byId = new Map(
          rows.map((r) => [
            r.id,
            toBlockResource(
              r,
              (links.get(r.id) ?? []).map((l) => l.termId),
            ),
          ]),
        );
        return new Map(
          parents.map((p) => [p.id, [byId.get(ref(p, 'blockId') ?? '')].filter((r): r is Resource => !!r)]),
        );
      },
    },
  },
};

const INCLUDES = ['parent', 'children', 'children.block', 'block', 'block.terms', 'children.block.terms'];
const listQuery = jsonApiQuerySchema({
  filters: { courseId: filterValue, parentId: filterValue, type: filterValue, id: filterValue },
  sorts: ['order'],
  includes: INCLUDES,
  paginated: true,
});
const oneQuery = jsonApiQuerySchema({ includes: INCLUDES });
const params = z.object({ id: z.string().min(1) });

export const courseNodeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/course-nodes',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['courses'],
        summary: "Nodes of the learner's courses.",
        querystring: listQuery,
        response: {
          200: collectionOf(courseNodeResource, [
            courseNodeResource,
            courseBlockResource,
            courseTermResource,
          ]),
        },
      },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const { rows, total } = await listNodes(app.db, scope.viewer, q);
      const data = rows.map(toNodeResource);
      const included = await resolveIncludes(scope, relations, data, q.include);
      // The learner's own limits on every node sent, included ones too (decision 0019).
      const own = await learnerLimits(app.db, scope.viewer, [...data, ...included]);
      return collectionDocument(data.map(own), included.map(own), total, q.page);
    },
  );

  app.get(
    '/course-nodes/:id',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['courses'],
        summary: "One node of the learner's courses.",
        params,
        querystring: oneQuery,
        response: {
          200: documentOf(courseNodeResource, [courseNodeResource, courseBlockResource, courseTermResource]),
        },
      },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const [row] = await nodesByIds(app.db, scope.viewer, [request.params.id]);
      if (!row) throw notFound('Node');
      const data = toNodeResource(row);
      const included = await resolveIncludes(scope, relations, [data], q.include);
      const own = await learnerLimits(app.db, scope.viewer, [data, ...included]);
      return resourceDocument(own(data), included.map(own));
    },
  );

  await app.register(courseNodeGuidanceRoutes);
};
