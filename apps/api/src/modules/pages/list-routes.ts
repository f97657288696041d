import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { filterValue, jsonApiQuerySchema } from '../../plugins/jsonapi';
import { listRoute } from '../respond';
import { listPages, toPageSummary } from './list';
import { collectionOf } from '../../plugins/contract';
import { pageSummaryResource } from '../../plugins/resources';

/**
 * GET /api/pages. Apart from the reads in list.ts, which the relations of every resource use
 * (relations.ts): the route needs respond.ts, which needs the relations (a cycle, issue 40).
 */
const stateValue = filterValue.refine(
  (s) => s.split(',').every((x) => x === 'ACTIVE' || x === 'ARCHIVED'),
  'ACTIVE or ARCHIVED',
);

export const pageListRoutes: FastifyPluginAsyncZod = async (app) => {
  listRoute(app, {
    path: '/pages',
    tag: 'lessons',
    summary:
      'Lesson pages in summary (no answers): own lessons, the classes one teaches, the tenant for administrators.',
    query: jsonApiQuerySchema({
      filters: { lessonId: filterValue, id: filterValue, nodeId: filterValue, state: stateValue },
      sorts: ['position', 'createdAt', 'answeredAt'],
      paginated: true,
    }),
    document: collectionOf(pageSummaryResource),
    list: listPages,
    toResource: toPageSummary,
  });
};
