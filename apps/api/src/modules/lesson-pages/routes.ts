import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { sendCachedAnswer } from '../../lib/answer-cache';
import { noBody } from '../../plugins/answers';
import { currentUser } from '../../plugins/auth';
import { resourceDocument } from '../../plugins/jsonapi';
import { emitPlayerEvent } from '../lrs/emit';
import { VersionedContentCache } from './content-cache';
import { ownPlayerRead } from './own-reads';
import { readPage } from './correction';
import type { PlayerContext } from './service';
import {
  InFlight,
  answerPage,
  choosePage,
  nextPage,
  openPage,
  ping,
  previousPage,
  recordTincanScore,
  retryPage,
  startPage,
  unlockHint,
} from './service';
import { documentOf } from '../../plugins/contract';
import { lessonPageResource } from '../../plugins/resources';

export interface LessonPageRoutesOptions {
  /** Server clock (tests move it instead of sleeping). */
  now?: () => Date;
}

/** Answers are small (at most 1000 characters per free answer); anything bigger is refused with 413 before parsing. */
export const PLAYER_BODY_LIMIT = 256 * 1024;

const params = z.object({ id: z.string().min(1).max(200) });
const id = z.string().min(1).max(200);
const pageBody = z.object({ pageId: id });
/**
 * A learning module's score, xAPI `result.score`: `scaled` in [0, 1], or `raw` with `max` (and
 * `min`, 0 by default) where min < max and min ≤ raw ≤ max. `scaled` wins when both are given;
 * the raw form is checked whenever one of its fields is present.
 */
const tincanScoreSchema = z
  .object({
    scaled: z.number().min(0).max(1).optional(),
    raw: z.number().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
  })
  .superRefine((s, issue) => {
    const rawForm = s.raw !== undefined || s.min !== undefined || s.max !== undefined;
    if (!rawForm) {
      if (s.scaled === undefined)
        issue.addIssue({ code: 'custom', message: 'Give scaled, or raw with max.', path: [] });
      return;
    }
    if (s.raw === undefined)
      issue.addIssue({ code: 'custom', message: 'raw is required with min or max.', path: ['raw'] });
    if (s.max === undefined)
      issue.addIssue({ code: 'custom', message: 'max is required with raw.', path: ['max'] });
    if (s.raw === undefined || s.max === undefined) return;
    const min = s.min ?? 0;
    if (!(min < s.max))
      issue.addIssue({
        code: 'custom',
        message: 'min must be less than max.',
        path: [s.min === undefined ? 'max' : 'min'],
      });
    else if (s.raw < min || s.raw > s.max)
      issue.addIssue({ code: 'custom', message: 'raw must be between min and max.', path: ['raw'] });
  });

const hintsSchema = z.object({
  messages: z.array(z.string()),
  remaining: z.number(),
  nextMalus: z.number().nullable(),
});

/** Lesson player calls (docs/api.md "Lesson player"): thin, the rules live in service.ts. */
export const lessonPageRoutes: FastifyPluginAsyncZod<LessonPageRoutesOptions> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());
  const inFlight = new InFlight();
  // Kept under the database's content stamp, read with the viewer (decision 0025).
  const caches = new VersionedContentCache();
  const received = new WeakMap<FastifyRequest, Date>();
  // Stamped before authentication and any database work: lateness is judged on arrival.
  const stamp = async (request: FastifyRequest) => {
    received.set(request, now());
  };
  // `content`: the content stamp the request reads by (the viewer's, unless told).
  const ctxOf = (
    request: FastifyRequest,
    content = currentUser(request).homeVersions?.content,
  ): PlayerContext => ({
    db: app.db,
    kind: app.dbKind,
    contextId: request.context.id,
    userId: currentUser(request).id,
    receivedAt: received.get(request) ?? now(),
    cache: caches.at(content),
    files: app.files,
  });
  // requireHomeUser: the same checks as requireUser, with the content stamp read in the viewer's
  // statement (no extra statement per answer).
  const onRequest = [stamp, app.auth.requireHomeUser];
  const tags = ['lesson player'];

  app.get(
    '/lessons/:id/pages/current',
    {
      onRequest,
      // Opening a lesson writes its first page: answered like a write (plugins/auth.ts, 0059).
      config: { writes: true },
      schema: {
        tags,
        summary:
          'The current page of the lesson (created on first open), a reached page (pageId) or the first page of a reached section.',
        params,
        querystring: z.strictObject({
          noCache: z.string().optional(),
          options: z.string().optional(),
          section: id.optional(),
          pageId: id.optional(),
        }),
        response: { 200: documentOf(lessonPageResource) },
      },
    },
    async (request, reply) => {
      const receivedAt = received.get(request) ?? now();
      // The learner's own page is answered from the answer cache while their stamps, read from
      // the database, say nothing it shows changed (migration 0033) and its clock has not moved
      // it (`validUntil`); staff correcting someone else's page get it built each time (0068).
      return sendCachedAnswer(
        app.db,
        request,
        reply,
        ownPlayerRead(app, request, receivedAt.getTime()),
        async (versions) => {
          // Built from the content of the stamps it is kept under.
          const ctx = ctxOf(request, versions.content);
          const view = request.query.pageId
            ? // A reached page: the learner's own, or staff correcting it (issue 13).
              await readPage(ctx, currentUser(request).isAdmin, request.params.id, request.query.pageId)
            : await openPage(ctx, request.params.id, { section: request.query.section });
          return {
            document: resourceDocument(view.resource, []),
            validUntil: view.validUntil,
            keep: view.audience === 'learner',
          };
        },
      );
    },
  );

  app.patch(
    '/lessons/:id/pages/current',
    {
      onRequest,
      bodyLimit: PLAYER_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Answers the page (exercises) or closes it (slides, tincan); graded by the server.',
        params,
        body: z.object({
          pageId: id,
          inputs: z.object({ answers: z.array(z.unknown()).max(1000) }).optional(),
        }),
        response: { 200: documentOf(lessonPageResource) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const doc = await inFlight.run(request.params.id, () =>
        answerPage(ctx, request.params.id, request.body.pageId, request.body.inputs?.answers),
      );
      // Committed: the learning record is written after, off the answer's transaction (decision 0017).
      emitPlayerEvent(ctx, request.context, 'answered', request.params.id, request.body.pageId);
      return resourceDocument(doc, []);
    },
  );

  app.post(
    '/lessons/:id/pages/custom-tincan-score',
    {
      onRequest,
      bodyLimit: PLAYER_BODY_LIMIT,
      schema: {
        tags,
        summary: "Records a tincan page's score sent by its learning module (once, like an answer).",
        params,
        // The launch the server issued with the page (`tincanLaunch`): a score without it is refused.
        body: z.object({ pageId: id, launch: id, score: tincanScoreSchema }),
        response: { 200: documentOf(lessonPageResource) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const doc = await inFlight.run(request.params.id, () =>
        recordTincanScore(
          ctx,
          request.params.id,
          request.body.pageId,
          request.body.launch,
          request.body.score,
        ),
      );
      emitPlayerEvent(ctx, request.context, 'answered', request.params.id, request.body.pageId);
      return resourceDocument(doc, []);
    },
  );

  app.post(
    '/lessons/:id/pages/current/retry',
    {
      onRequest,
      bodyLimit: PLAYER_BODY_LIMIT,
      schema: {
        tags,
        summary: 'A new attempt at an answered page, when the course type allows retries.',
        params,
        body: pageBody,
        response: { 200: documentOf(lessonPageResource) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      return resourceDocument(
        await inFlight.run(request.params.id, () => retryPage(ctx, request.params.id, request.body.pageId)),
        [],
      );
    },
  );

  app.post(
    '/lessons/:id/pages/current/choose',
    {
      onRequest,
      bodyLimit: PLAYER_BODY_LIMIT,
      schema: {
        tags,
        summary: "A multiblock page: opens the chosen child block's page.",
        params,
        body: z.object({ pageId: id, nodeId: id }),
        response: { 200: documentOf(lessonPageResource) },
      },
    },
    async (request) =>
      resourceDocument(
        await choosePage(ctxOf(request), request.params.id, request.body.pageId, request.body.nodeId),
        [],
      ),
  );

  app.post(
    '/lessons/:id/pages/current/hints',
    {
      onRequest,
      bodyLimit: PLAYER_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Unlocks the next hint of the page.',
        params,
        body: pageBody,
        response: { 200: z.object({ hints: hintsSchema }) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const hints = await unlockHint(ctx, request.params.id, request.body.pageId);
      emitPlayerEvent(ctx, request.context, 'hint', request.params.id, request.body.pageId);
      return hints;
    },
  );

  app.post(
    '/lessons/:id/pages/current/start',
    {
      onRequest,
      bodyLimit: PLAYER_BODY_LIMIT,
      schema: {
        tags,
        summary: "Starts a timed page's clock (server time); idempotent.",
        params,
        body: pageBody,
        response: { 200: documentOf(lessonPageResource) },
      },
    },
    async (request) =>
      resourceDocument(await startPage(ctxOf(request), request.params.id, request.body.pageId), []),
  );

  app.post(
    '/lessons/:id/pages/current/ping',
    {
      onRequest,
      bodyLimit: PLAYER_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Keep-alive (every 10 s): adds the server-measured time since the last one.',
        params,
        body: pageBody,
        response: { 204: noBody('Counted.') },
      },
    },
    async (request, reply) => {
      await ping(ctxOf(request), request.params.id, request.body.pageId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/lessons/:id/pages/next',
    {
      onRequest,
      bodyLimit: PLAYER_BODY_LIMIT,
      schema: {
        tags,
        summary: 'The page after `fromPageId`.',
        params,
        body: z.object({ fromPageId: id }),
        response: { 200: documentOf(lessonPageResource) },
      },
    },
    async (request) =>
      resourceDocument(await nextPage(ctxOf(request), request.params.id, request.body.fromPageId), []),
  );

  app.post(
    '/lessons/:id/pages/previous',
    {
      onRequest,
      bodyLimit: PLAYER_BODY_LIMIT,
      schema: {
        tags,
        summary: 'The page before `fromPageId` (read-only once answered).',
        params,
        body: z.object({ fromPageId: id }),
        response: { 200: documentOf(lessonPageResource) },
      },
    },
    async (request) =>
      resourceDocument(await previousPage(ctxOf(request), request.params.id, request.body.fromPageId), []),
  );
};
