import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEFAULT_STATISTICS_PERIOD, STATISTICS_PERIODS, isTimeZone } from '@parcours/domain/statistics';
import { ApiError } from '../../plugins/errors';
import { jsonApiQuerySchema } from '../../plugins/jsonapi';
import { scopeOf } from '../scope';
import { learnerStatistics } from './service';
import { documentOf } from '../../plugins/contract';
import { statisticsResource } from '../../plugins/resources';

const query = jsonApiQuerySchema({
  filters: {
    period: z.enum(STATISTICS_PERIODS, { message: `One of ${STATISTICS_PERIODS.join(', ')}.` }),
    userId: z.string().min(1),
    tz: z.string().refine(isTimeZone, 'An IANA time zone name such as Europe/Paris.'),
  },
});

export interface StatisticsRouteOptions {
  /** Clock (tests with activity on known dates). */
  now?: () => Date;
}

/**
 * GET /statistics (issue 9, docs/product.md §2 dashboard "Stats"): the signed-in learner's pages done, time
 * and progression per bucket of a §9 period preset, in the browser's time zone. Personal: asking
 * for anyone else is 403, administrators included (their tools are elsewhere).
 */
export const statisticsRoutes: FastifyPluginAsyncZod<StatisticsRouteOptions> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());
  app.get(
    '/statistics',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['statistics'],
        summary:
          "The learner's statistics for a period: `filter[period]` one of 1w (default), 1m, 3m, 6m, 1y; `filter[tz]` the IANA zone of the buckets (default UTC); `filter[userId]` own id or `me`.",
        querystring: query,
        response: { 200: documentOf(statisticsResource) },
      },
    },
    async (request) => {
      const { viewer } = scopeOf(app.db, request);
      const q = request.query as Record<string, string | undefined>;
      const requested = q['filter[userId]'];
      if (requested !== undefined && requested !== 'me' && requested !== viewer.userId) {
        throw new ApiError(403, 'Forbidden', 'You may only read your own statistics.', {
          parameter: 'filter[userId]',
        });
      }
      const period =
        (q['filter[period]'] as (typeof STATISTICS_PERIODS)[number] | undefined) ?? DEFAULT_STATISTICS_PERIOD;
      const timeZone = q['filter[tz]'] ?? 'UTC';
      const attributes = await learnerStatistics(
        app.db,
        viewer.contextId,
        viewer.userId,
        period,
        timeZone,
        now(),
      );
      return {
        data: {
          type: 'statistics',
          id: `${viewer.userId}:${period}:${timeZone}`,
          attributes: { ...attributes },
        },
      };
    },
  );
};
