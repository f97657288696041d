import { badgeLevel } from '@parcours/domain/badges';
import { LIMITS } from '@parcours/domain/constants';
import {
  categoryPercent,
  competencyLevels,
  type CategoryProgressAttributes,
  type CompetencyLevelAttributes,
} from '@parcours/domain/dashboard-levels';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError } from '../../plugins/errors';
import type { Resource } from '../../plugins/jsonapi';
import { collectionDocument, filterValue, jsonApiQuerySchema } from '../../plugins/jsonapi';
import { scopeOf } from '../scope';
import type { Viewer } from '../scope';
import { categoryPoints, listCompetencies, pointsByCompetency } from './repository';
import { collectionOf } from '../../plugins/contract';
import { categoryProgressResource, competencyLevelResource } from '../../plugins/resources';

const query = jsonApiQuerySchema({ filters: { userId: filterValue } });

/**
 * Personal read models: `filter[userId]` may only name oneself (or `me`); anyone else is 403,
 * administrators included, as for statistics (their reporting tools are elsewhere).
 */
function ownOnly(viewer: Viewer, requested: string | undefined): void {
  if (requested !== undefined && requested !== 'me' && requested !== viewer.userId) {
    throw new ApiError(403, 'Forbidden', 'You may only read your own levels.', {
      parameter: 'filter[userId]',
    });
  }
}

/** GET /competency-levels and /category-progress: the dashboard's Levels and Jobs tabs (issue 9). */
export const dashboardLevelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/competency-levels',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['dashboard'],
        summary:
          "The learner's medal per competency of the tenant (points earned / possible on graded pages whose block names it, children summed into parents), in tree order; at most LIMITCOMPETENCY children per parent and LIMITGLOBAL rows. `filter[userId]` own id or `me`.",
        querystring: query,
        response: { 200: collectionOf(competencyLevelResource) },
      },
    },
    async (request) => {
      const { viewer } = scopeOf(app.db, request);
      ownOnly(viewer, (request.query as Record<string, string | undefined>)['filter[userId]']);
      const [nodes, sums] = await Promise.all([
        listCompetencies(app.db, viewer.contextId),
        pointsByCompetency(app.db, viewer.contextId, viewer.userId),
      ]);
      const data: Resource[] = competencyLevels(nodes, sums).map((level) => {
        const attributes: CompetencyLevelAttributes = {
          competencyId: level.id,
          parentId: level.parentId,
          title: level.title,
          icon: level.icon,
          order: level.order,
          isGeneric: level.isGeneric,
          depth: level.depth,
          actual: level.actual,
          max: level.max,
          ratio: level.ratio,
          medal: level.medal,
          color: level.color,
        };
        return {
          type: 'competency-levels',
          id: level.id,
          attributes: { ...attributes },
          relationships: {
            parent: {
              data:
                level.parentId && level.depth > 0 ? { type: 'competency-levels', id: level.parentId } : null,
            },
          },
        };
      });
      return collectionDocument(data, [], data.length, { number: 1, size: LIMITS.GLOBAL });
    },
  );

  app.get(
    '/category-progress',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['dashboard'],
        summary:
          "The learner's started course categories (jobs), each with its percent out of 100 (floor of points earned / possible on its graded pages); at most LIMITCATEGORY, by title. `filter[userId]` own id or `me`.",
        querystring: query,
        response: { 200: collectionOf(categoryProgressResource) },
      },
    },
    async (request) => {
      const { viewer } = scopeOf(app.db, request);
      ownOnly(viewer, (request.query as Record<string, string | undefined>)['filter[userId]']);
      const rows = await categoryPoints(app.db, viewer.contextId, viewer.userId);
      const data: Resource[] = rows.map((row) => {
        const percent = categoryPercent(row);
        const attributes: CategoryProgressAttributes = {
          categoryId: row.categoryId,
          title: row.title,
          icon: row.icon,
          startedLessons: row.startedLessons,
          actual: row.actual,
          max: row.max,
          percent,
          level: badgeLevel('theme', percent / 100),
        };
        return { type: 'category-progress', id: row.categoryId, attributes: { ...attributes } };
      });
      return collectionDocument(data, [], data.length, { number: 1, size: LIMITS.CATEGORY });
    },
  );
};
