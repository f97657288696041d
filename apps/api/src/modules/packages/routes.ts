import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import { uuid } from '../lrs/statement-schema';
import { readSummary } from '../../content/packages/store';
import * as answers from './answers';
import { abandonSession, fetchAuthToken, waiveAu, type MayOperate, type OperatorOutcome } from './cmi5';
import { LAUNCH_MODES, createLaunch, packagesOriginOf } from './launches';
import type { LaunchRow } from './launches';

/**
 * The app origin's package routes (issue 31, docs/api.md "Packages"): the player's launch, and
 * the cmi5 fetch URL an AU calls from the packages origin. Everything else a package does goes
 * through the packages origin (modules/packages/origin.ts) or the LRS (/api/xapi, decision 0049).
 */
export const packageRoutes: FastifyPluginAsyncZod<{
  packagesOrigin: string | null;
  packagesPort: number;
  now?: () => Date;
}> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());
  const tags = ['packages'];

  app.post(
    '/packages/launches',
    {
      onRequest: [app.auth.requireUser],
      schema: {
        tags,
        summary:
          "A launch of a package page: the bridge's URL on the packages origin, its secret in the fragment.",
        body: z.strictObject({
          lessonId: z.string().min(1).max(200),
          pageId: z.string().min(1).max(200),
          launch: z.string().min(1).max(200),
          // cmi5: the AU of the course (its place in cmi5.xml) and the launch mode (issue 39).
          au: z.number().int().min(0).max(9999).optional(),
          launchMode: z.enum(LAUNCH_MODES).optional(),
        }),
        response: { 200: answers.launch },
      },
    },
    async (request) =>
      createLaunch(
        app.db,
        app.dbKind,
        request,
        currentUser(request).id,
        request.body,
        packagesOriginOf(request, opts.packagesOrigin, opts.packagesPort),
        now(),
      ),
  );

  // cmi5 §9.3.6, §9.3.7: a tenant administrator, or a teacher of the learner's class, abandons a
  // session or waives an AU (issue 39), as a teacher corrects a learner's page (correction.ts).
  const mayOperate =
    (request: Parameters<typeof currentUser>[0]): MayOperate =>
    async (launch) => {
      const user = currentUser(request);
      if (user.isAdmin) return true;
      const teacher = await app.db
        .selectFrom('lessons')
        .innerJoin('classUsers', 'classUsers.classId', 'lessons.classId')
        .select('classUsers.id')
        .where('lessons.id', '=', launch.lessonId)
        .where('lessons.contextId', '=', launch.contextId)
        .where('classUsers.userId', '=', user.id)
        .where('classUsers.role', '=', 'TEACHER')
        .executeTakeFirst();
      return teacher !== undefined;
    };
  const answered = (outcome: OperatorOutcome, missing: string) => {
    if (outcome === 'forbidden')
      throw new ApiError(
        403,
        'Forbidden',
        "Only a tenant administrator or the learner's teacher abandons sessions or waives AUs.",
      );
    if (outcome === 'missing') throw new ApiError(404, 'MODEL_NOT_FOUND', missing);
  };
  const courseOf = async (launch: LaunchRow) =>
    app.files ? ((await readSummary(app.files, launch.contextId, launch.packageId))?.cmi5 ?? null) : null;
  const deps = (request: { log: FastifyBaseLogger }) => ({
    db: app.db,
    kind: app.dbKind,
    now: now(),
    log: request.log,
  });
  app.post(
    '/packages/cmi5/sessions/:sessionId/abandon',
    {
      onRequest: [app.auth.requireUser],
      schema: {
        tags,
        summary:
          "cmi5: a tenant administrator or the learner's teacher abandons an open AU session; `abandoned` is recorded.",
        params: z.strictObject({ sessionId: uuid }),
        response: { 204: answers.done },
      },
    },
    async (request, reply) => {
      const outcome = await abandonSession(
        deps(request),
        request.context.id,
        request.params.sessionId,
        courseOf,
        mayOperate(request),
      );
      answered(outcome, 'No open cmi5 session of this tenant has this id.');
      return reply.code(204).send();
    },
  );
  app.post(
    '/packages/cmi5/registrations/:registration/waive',
    {
      onRequest: [app.auth.requireUser],
      schema: {
        tags,
        summary:
          "cmi5: a tenant administrator or the learner's teacher waives an AU of a registration, with the reason.",
        params: z.strictObject({ registration: uuid }),
        body: z.strictObject({
          au: z.number().int().min(0).max(9999),
          reason: z.enum(['Tested Out', 'Equivalent AU', 'Equivalent Outside Activity', 'Administrative']),
        }),
        response: { 204: answers.done },
      },
    },
    async (request, reply) => {
      const { au, reason } = request.body;
      const outcome = await waiveAu(
        deps(request),
        request.context.id,
        request.params.registration,
        au,
        reason,
        courseOf,
        mayOperate(request),
      );
      answered(outcome, 'No launched registration with this AU to waive.');
      return reply.code(204).send();
    },
  );

  // cmi5 §8.2: a POST from the AU's origin, any body; 200 with JSON even for an error.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, _body, done) =>
      done(null, undefined),
    );
    scope.addHook('onRequest', async (_request, reply) => {
      // The token is the credential; no cookie is read: any origin may call it.
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-allow-methods', 'POST, OPTIONS');
      reply.header('access-control-allow-headers', 'Content-Type');
      reply.header('cache-control', 'no-store');
    });
    const params = z.strictObject({ token: z.string().max(200) });
    scope.options('/packages/fetch/:token', { schema: { hide: true } }, async (_request, reply) =>
      reply.code(204).send(),
    );
    scope.post(
      '/packages/fetch/:token',
      {
        schema: {
          tags,
          summary: 'cmi5 fetch URL: the auth token, once.',
          params,
          response: { 200: answers.fetched },
        },
      },
      async (request) => {
        const { token } = request.params as { token: string };
        if (!/^[A-Za-z0-9_-]{20,100}$/.test(token))
          return { 'error-code': '2', 'error-text': 'This fetch URL is unknown.' };
        return fetchAuthToken(app.db, app.dbKind, request.context.id, token, now());
      },
    );
  });
};
