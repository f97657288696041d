import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import { notFound } from '../scope';
import { authenticate } from './credentials';
import { flushEmitted } from './emit';
import { startForwarder } from './forward';
import { launchModule } from './launch';
import { getStatement, postStatements, putStatement, queryResult } from './resource';
import type { LrsOptions } from './resource';
import { XAPI_VERSION } from './store';

/**
 * The built-in learning record store (issue 14, decision 0017, docs/api.md "Learning records"):
 * the xAPI 1.0.3 statements resource under /api/xapi/, per tenant, behind launch credentials.
 * Modules run sandboxed in an opaque origin, so the resource answers CORS (no cookies are
 * involved: the credentials travel in the Authorization header).
 */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, X-Experience-API-Version',
  'access-control-expose-headers': 'X-Experience-API-Version, X-Experience-API-Consistent-Through',
  'access-control-max-age': '600',
};

/** xAPI-Communication.md §6.2: 1.0.x accepted, anything else (or nothing) refused with 400. */
async function requireVersion(request: FastifyRequest) {
  const v = request.headers['x-experience-api-version'];
  if (typeof v !== 'string' || !/^1\.0(\.\d+)?$/.test(v.trim())) {
    throw new ApiError(400, 'VALIDATION_ERROR', 'X-Experience-API-Version 1.0.x is required.', {
      parameter: 'X-Experience-API-Version',
    });
  }
}

const optional = z.string().max(2048).optional();
const queryParams = z.strictObject({
  statementId: optional,
  voidedStatementId: optional,
  agent: optional,
  verb: optional,
  activity: optional,
  registration: optional,
  since: optional,
  until: optional,
  limit: z.coerce.number().int().min(0).max(10_000).optional(),
  ascending: z.enum(['true', 'false']).optional(),
  format: z.enum(['ids', 'exact', 'canonical']).optional(),
  attachments: z.enum(['true', 'false']).optional(),
  related_activities: z.enum(['false']).optional(),
  related_agents: z.enum(['false']).optional(),
  cursor: z.string().max(4096).optional(),
});

export const lrsRoutes: FastifyPluginAsyncZod<{ now?: () => Date }> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());
  const lrs = (request: FastifyRequest): LrsOptions => ({
    db: app.db,
    kind: app.dbKind,
    now: now(),
    request,
    quotas: app.quotas,
  });
  const tags = ['learning records'];
  // Forwarding to the tenants' external LRSs (hosts.lrs) runs with the app and stops with it.
  const stopForwarder = startForwarder(app.db, app.dbKind);
  // A graceful stop writes the player statements still queued (decision 0017: only a crash loses them).
  app.addHook('onClose', async () => {
    await stopForwarder();
    await flushEmitted(app.db);
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(CORS_HEADERS);
    reply.header('x-experience-api-version', XAPI_VERSION);
  });
  // Every answer carries the version, errors included (§6.2).
  app.addHook('onSend', async (_request, reply: FastifyReply) => {
    reply.header('x-experience-api-version', XAPI_VERSION);
  });

  app.options('/xapi/*', { schema: { hide: true } }, async (_request, reply) => reply.code(204).send());

  app.get('/xapi/about', { schema: { tags, summary: 'Versions this LRS speaks.' } }, async () => ({
    version: [XAPI_VERSION],
  }));

  app.post(
    '/xapi/launches',
    {
      onRequest: [app.auth.requireUser],
      schema: {
        tags,
        summary: 'Credentials and launch parameters for a learning-module page (SPEC §7).',
        body: z.strictObject({
          lessonId: z.string().min(1).max(200),
          pageId: z.string().min(1).max(200),
          launch: z.string().min(1).max(200),
        }),
      },
    },
    async (request, reply) => {
      const launched = await launchModule(lrs(request), currentUser(request).id, request.body);
      return reply.code(201).send(launched);
    },
  );

  const statementRoute = { tags };
  app.put(
    '/xapi/statements',
    {
      preHandler: requireVersion,
      schema: {
        ...statementRoute,
        summary: 'Stores one statement under statementId.',
        querystring: z.strictObject({ statementId: z.string().max(200) }),
      },
    },
    async (request, reply) => {
      const o = lrs(request);
      const cred = await authenticate(o.db, request, o.now);
      await putStatement(o, cred, request.query.statementId, request.body);
      return reply.code(204).send();
    },
  );

  app.post(
    '/xapi/statements',
    {
      preHandler: requireVersion,
      schema: { ...statementRoute, summary: 'Stores one statement or an array of statements.' },
    },
    async (request) => {
      const o = lrs(request);
      const cred = await authenticate(o.db, request, o.now);
      return postStatements(o, cred, request.body);
    },
  );

  app.get(
    '/xapi/statements',
    {
      preHandler: requireVersion,
      schema: {
        ...statementRoute,
        summary: 'One statement by id, or a page of a query.',
        querystring: queryParams,
      },
    },
    async (request, reply) => {
      const o = lrs(request);
      const cred = await authenticate(o.db, request, o.now);
      reply.header('x-experience-api-consistent-through', o.now.toISOString());
      const q = request.query;
      if (q.statementId !== undefined || q.voidedStatementId !== undefined) {
        const others = Object.keys(q).filter(
          (k) => !['statementId', 'voidedStatementId', 'format', 'attachments'].includes(k),
        );
        if ((q.statementId !== undefined && q.voidedStatementId !== undefined) || others.length > 0) {
          throw new ApiError(400, 'VALIDATION_ERROR', 'statementId or voidedStatementId goes alone.');
        }
        const found = await getStatement(
          o,
          cred,
          q.statementId ?? (q.voidedStatementId as string),
          q.voidedStatementId !== undefined,
        );
        if (!found) throw notFound('Statement');
        reply.header('last-modified', new Date(found.stored).toUTCString());
        return found.statement;
      }
      return queryResult(o, cred, q);
    },
  );
};
