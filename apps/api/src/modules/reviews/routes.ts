import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { filterValue, jsonApiQuerySchema, parseJsonApiQuery } from '../../plugins/jsonapi';
import { collection } from '../respond';
import { ownUserIds, scopeOf } from '../scope';
import { listReviews } from './repository';
import { toReviewResource } from './serializer';
import { COMMENT_MAX, createReview, isRatingRatio } from './service';
import { collectionOf, documentOf } from '../../plugins/contract';
import { reviewResource } from '../../plugins/resources';

const listQuery = jsonApiQuerySchema({
  filters: { resourceType: filterValue, resourceId: filterValue, userId: filterValue, classId: filterValue },
  sorts: ['createdAt'],
  paginated: true,
});

const id = z.string().min(1).max(200);
const createBody = z.object({
  classId: id,
  comment: z.string().max(COMMENT_MAX, `At most ${COMMENT_MAX} characters.`).nullable().optional(),
  // docs/product.md §2: /evaluate/{type}/{id}, the type can only be the program type.
  resourceType: z.literal('program'),
  resourceId: id,
  ratio: z
    .number()
    .refine(isRatingRatio, 'ratio is rating / 5 with a rating of 1 to 5: 0.2, 0.4, 0.6, 0.8 or 1.'),
});

export interface ReviewRoutesOptions {
  now?: () => Date;
}

/** End-of-program evaluations (docs/api.md "Progression"). */
export const reviewRoutes: FastifyPluginAsyncZod<ReviewRoutesOptions> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());

  app.get(
    '/reviews',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['reviews'],
        summary: "The learner's reviews (`filter[userId]` = own id or `me`).",
        querystring: listQuery,
        response: { 200: collectionOf(reviewResource) },
      },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const requested = q.filters.userId?.map((u) => (u === 'me' ? scope.viewer.userId : u));
      const { rows, total } = await listReviews(app.db, scope.viewer, ownUserIds(scope.viewer, requested), q);
      return collection(scope, q, rows.map(toReviewResource), total);
    },
  );

  app.post(
    '/reviews',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['reviews'],
        summary: 'Evaluates a program (one review per learner and program).',
        body: createBody,
        response: { 201: documentOf(reviewResource) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(app.db, request);
      const row = await createReview(app.db, app.dbKind, scope.viewer, request.body, now());
      return reply.code(201).send({ data: toReviewResource(row) });
    },
  );
};
