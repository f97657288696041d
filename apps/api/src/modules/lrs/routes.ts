import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import { notFound } from '../scope';
import { alternateRequest } from './alternate';
import { multipartAnswer, partsOf, statementsAndParts } from './attachments';
import type { Part } from './attachments';
import { createClient, listClients, revokeClient } from './clients';
import { documentRoutes } from './document-routes';
import { flushEmitted } from './emit';
import { startForwarder } from './forward';
import * as answers from './answers';
import { launchModule } from './launch';
import { jsonBody, requireVersion } from './http';
import { SCOPES, authenticate } from './principal';
import { getStatement, postStatements, putStatement, queryResult } from './resource';
import type { LrsOptions } from './resource';
import type { Statement } from './statement-schema';
import { XAPI_VERSION } from './store';

/**
 * The built-in learning record store (issue 14, decision 0017, docs/api.md "Learning records"):
 * the xAPI 1.0.3 statements resource under /api/xapi/, per tenant, behind launch credentials.
 * Modules run sandboxed in an opaque origin, so the resource answers CORS (no cookies are
 * involved: the credentials travel in the Authorization header).
 */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers':
    'Authorization, Content-Type, X-Experience-API-Version, If-Match, If-None-Match',
  'access-control-expose-headers':
    'X-Experience-API-Version, X-Experience-API-Consistent-Through, ETag, Last-Modified',
  'access-control-max-age': '600',
};

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
  related_activities: z.enum(['true', 'false']).optional(),
  related_agents: z.enum(['true', 'false']).optional(),
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
  const stopForwarder = startForwarder(app.db, app.dbKind, 1000, { log: app.log });
  // A graceful stop writes the player statements still queued (decision 0017: only a crash loses them).
  app.addHook('onClose', async () => {
    await stopForwarder();
    await flushEmitted(app.db);
  });

  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(CORS_HEADERS);
    reply.header('x-experience-api-version', XAPI_VERSION);
    // Every answer, errors included (xAPI-Communication.md §2.1.3): statements are readable
    // as soon as their write commits, so "now" is always consistent.
    reply.header('x-experience-api-consistent-through', now().toISOString());
  });
  // Every answer carries the version, errors included (§6.2).
  app.addHook('onSend', async (_request, reply: FastifyReply) => {
    reply.header('x-experience-api-version', XAPI_VERSION);
  });

  app.options('/xapi/*', { schema: { hide: true } }, async (_request, reply) => reply.code(204).send());

  app.get(
    '/xapi/about',
    { schema: { tags, summary: 'Versions this LRS speaks.', response: { 200: answers.about } } },
    async () => ({ version: [XAPI_VERSION] }),
  );

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
        response: { 201: answers.moduleLaunch },
      },
    },
    async (request, reply) => {
      const launched = await launchModule(lrs(request), currentUser(request).id, request.body);
      return reply.code(201).send(launched);
    },
  );

  app.post(
    '/xapi/clients',
    {
      onRequest: [app.auth.requireUser],
      schema: {
        tags,
        summary:
          'A tenant administrator creates LRS client credentials with xAPI scopes; the secret is shown once.',
        body: z.strictObject({
          name: z.string().trim().min(1).max(200),
          scopes: z.array(z.enum(SCOPES)).min(1).max(SCOPES.length),
        }),
        response: { 201: answers.createdClient },
      },
    },
    async (request, reply) => {
      const user = requireAdmin(request);
      const o = lrs(request);
      const created = await createClient(o.db, o.kind, request.context.id, user, request.body, o.now);
      return reply.code(201).send(created);
    },
  );
  app.get(
    '/xapi/clients',
    {
      onRequest: [app.auth.requireUser],
      schema: { tags, summary: "The tenant's live LRS clients.", response: { 200: answers.clientList } },
    },
    async (request) => {
      requireAdmin(request);
      return { clients: await listClients(app.db, request.context.id) };
    },
  );
  app.delete(
    '/xapi/clients/:key',
    {
      onRequest: [app.auth.requireUser],
      schema: {
        tags,
        summary: 'Revokes an LRS client.',
        params: z.strictObject({ key: z.string().max(200) }),
        response: { 204: answers.deleted },
      },
    },
    async (request, reply) => {
      requireAdmin(request);
      const o = lrs(request);
      if (!(await revokeClient(o.db, o.kind, request.context.id, request.params.key, o.now)))
        throw notFound('LRS client');
      return reply.code(204).send();
    },
  );

  // The xAPI resources take any body as bytes: documents may be of any media type, and a
  // statement body that is not JSON is a 400 (xAPI-Communication.md §1.5), not a 415.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    // A learner's records are never kept by a browser's cache: an AU reading its learner
    // preferences again must reach the LRS (cmi5 §11, issue 39), and nothing stays on a shared device.
    raw.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    // Before the routes' own query validation: `?method=` stands for another request (§1.3).
    raw.addHook('preValidation', async (request, reply) => {
      if (await alternateRequest(app, request, reply)) return reply;
      return undefined;
    });
    await raw.register(statementRoutes, { lrs });
    await raw.register(documentRoutes, { lrs });
  });
};

/** A tenant administrator's id; 403 for anyone else. */
function requireAdmin(request: FastifyRequest): string {
  const user = currentUser(request);
  if (!user.isAdmin) throw new ApiError(403, 'Forbidden', 'Only a tenant administrator manages LRS clients.');
  return user.id;
}

/** A statements body: JSON, or multipart/mixed with the attachments' parts (§1.5.2). */
function statementBody(request: FastifyRequest): { json: unknown; parts: Map<string, Part> } {
  const type = String(request.headers['content-type'] ?? '');
  if (/^multipart\/mixed\b/i.test(type)) {
    const raw = request.body;
    return statementsAndParts(type, Buffer.isBuffer(raw) ? raw : Buffer.alloc(0));
  }
  return { json: jsonBody(request), parts: new Map() };
}

/** `attachments=true`: multipart/mixed, the JSON first, then the parts its statements name. */
async function sendWithAttachments(o: LrsOptions, reply: FastifyReply, json: unknown, statements = [json]) {
  const parts = await partsOf(o.db, o.request.context.id, statements);
  const answer = multipartAnswer(json, parts);
  return reply.type(answer.contentType).send(answer.body);
}

const statementRoutes: FastifyPluginAsyncZod<{ lrs: (r: FastifyRequest) => LrsOptions }> = async (
  app,
  { lrs },
) => {
  const tags = ['learning records'];
  const statementRoute = { tags };
  app.put(
    '/xapi/statements',
    {
      preHandler: requireVersion,
      schema: {
        ...statementRoute,
        summary: 'Stores one statement under statementId.',
        querystring: z.strictObject({ statementId: z.string().max(200) }),
        response: { 204: answers.stored },
      },
    },
    async (request, reply) => {
      const o = lrs(request);
      const cred = await authenticate(o.db, request, o.now);
      const { json, parts } = statementBody(request);
      await putStatement(o, cred, request.query.statementId, json, parts);
      return reply.code(204).send();
    },
  );

  app.post(
    '/xapi/statements',
    {
      preHandler: requireVersion,
      schema: {
        ...statementRoute,
        summary: 'Stores one statement or an array of statements.',
        response: { 200: answers.statementsPosted, 204: answers.stored },
      },
    },
    async (request) => {
      const o = lrs(request);
      const cred = await authenticate(o.db, request, o.now);
      const { json, parts } = statementBody(request);
      return postStatements(o, cred, json, parts);
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
        produces: ['application/json', 'multipart/mixed'],
        response: { 200: answers.statementsAnswer },
      },
    },
    async (request, reply) => {
      const o = lrs(request);
      const cred = await authenticate(o.db, request, o.now);
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
          q.format,
        );
        if (!found) throw notFound('Statement');
        reply.header('last-modified', new Date(found.stored).toUTCString());
        if (q.attachments === 'true') return sendWithAttachments(o, reply, found.statement);
        // Stored after passing the statement schema (the answer's, answers.ts).
        return found.statement as Statement;
      }
      const result = await queryResult(o, cred, q);
      if (q.attachments === 'true') return sendWithAttachments(o, reply, result, result.statements);
      return result as { statements: Statement[]; more: string };
    },
  );
};
