import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { filterValue, jsonApiQuerySchema, filterValues, parseJsonApiQuery } from '../../plugins/jsonapi';
import { INCLUDES } from '../relations';
import { collection, single } from '../respond';
import { notFound, ownUserIds, scopeOf } from '../scope';
import { currentUser } from '../../plugins/auth';
import { answerActions } from './actions';
import { findLesson, listLessons } from './repository';
import { readLessons, readLessonsView } from './service';
import { sendCachedAnswer } from '../../lib/answer-cache';
import { collectionOf, documentOf } from '../../plugins/contract';
import { LESSON_INCLUDED, lessonResource } from '../../plugins/resources';

const listQuery = jsonApiQuerySchema({
  filters: {
    userId: filterValue,
    classId: filterValue,
    contextId: filterValue,
    programCourseId: filterValue,
    classProgramId: filterValue,
    certificationRef: z.literal('notnull'),
  },
  sorts: ['startedAt', 'createdAt'],
  includes: INCLUDES.lessons,
  paginated: true,
});
const oneQuery = jsonApiQuerySchema({ includes: INCLUDES.lessons });
const params = z.object({ id: z.string().min(1) });
const index = z.number().int().min(0).max(1000);
const actionsBody = z.object({
  inputs: z
    .array(z.strictObject({ actionIdx: index, choiceIdx: index }))
    .min(1)
    .max(10),
});

export interface LessonRoutesOptions {
  /** Server clock of the progression rules (tests move it instead of waiting). */
  now?: () => Date;
}

export const lessonRoutes: FastifyPluginAsyncZod<LessonRoutesOptions> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());
  app.get(
    '/lessons',
    {
      onRequest: app.auth.requireHomeUser,
      // Sent by the answer cache, which picks the encoding itself (lib/answer-cache.ts).
      compress: false,
      schema: {
        tags: ['lessons'],
        summary: "The signed-in learner's lessons, with tree and progression.",
        querystring: listQuery,
        response: {
          200: collectionOf(lessonResource, LESSON_INCLUDED),
        },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(app.db, request);
      // The whole query is parsed when the answer is built, not for a cached one (issue 32).
      const userIds = ownUserIds(scope.viewer, filterValues(request.query, 'userId'));
      const at = now();
      // The home's read: served again from this process while the database's version stamps
      // and the progression's clock say nothing changed (lib/answer-cache.ts, decision 0015).
      const own = userIds.length === 1 && userIds[0] === scope.viewer.userId;
      return sendCachedAnswer(
        app.db,
        request,
        reply,
        { viewer: scope.viewer, own, now: at.getTime() },
        async () => {
          const q = parseJsonApiQuery(request.query);
          const { rows, total } = await listLessons(app.db, scope.viewer, userIds, q);
          const { resources, validUntil } = await readLessonsView(app.db, app.dbKind, rows, at, scope.viewer);
          return { document: await collection(scope, q, resources, total), validUntil };
        },
      );
    },
  );

  app.get(
    '/lessons/:id',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['lessons'],
        summary: 'One of the learner’s lessons (another user’s id: 404).',
        params,
        querystring: oneQuery,
        response: {
          200: documentOf(lessonResource, LESSON_INCLUDED),
        },
      },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const row = await findLesson(app.db, scope.viewer, request.params.id);
      if (!row) throw notFound('Lesson');
      const [resource] = await readLessons(app.db, app.dbKind, [row], now());
      if (!resource) throw notFound('Lesson');
      return single(scope, q, resource);
    },
  );

  app.post(
    '/lessons/:id/actions',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['lessons'],
        summary:
          'Answers the end-of-lesson question of an ended lesson; the choice opens its target lesson, which is returned.',
        params,
        body: actionsBody,
        response: {
          200: documentOf(lessonResource, LESSON_INCLUDED),
        },
      },
    },
    async (request) => {
      const ctx = {
        db: app.db,
        kind: app.dbKind,
        contextId: request.context.id,
        userId: currentUser(request).id,
        now: now(),
      };
      const targetId = await answerActions(ctx, request.params.id, request.body.inputs);
      const scope = scopeOf(app.db, request);
      const row = await findLesson(app.db, scope.viewer, targetId);
      if (!row) throw notFound('Lesson');
      const [resource] = await readLessons(app.db, app.dbKind, [row], ctx.now);
      if (!resource) throw notFound('Lesson');
      return { data: resource };
    },
  );
};
