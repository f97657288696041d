import { learnerPreferencesRefusal } from '../packages/cmi5-rules';
import { afterPreferencesRead } from '../packages/lrs-hook';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../plugins/errors';
import { notFound } from '../scope';
import { findActivity } from './activities';
import * as answers from './answers';
import { deleteDocuments, getDocument, listDocumentIds, writeDocument } from './documents';
import type { DocumentKey, DocumentKind } from './documents';
import { authenticate, forbidden, requireScope } from './principal';
import type { Principal } from './principal';
import type { LrsOptions } from './resource';
import { learnerKey } from './resource';
import { requireVersion } from './http';
import { actorKey, agentSchema, iri, timestamp, uuid } from './statement-schema';
import type { Agent } from './statement-schema';

/**
 * xAPI-Communication.md §2.3–2.7: the State, Activity Profile and Agent Profile resources, and
 * the Agents and Activities resources (decision 0040). Launch credentials reach their learner's
 * state and agent profile, and read activity profiles; clients by scope (principal.ts).
 */
const malformed = (detail: string) => new ApiError(400, 'VALIDATION_ERROR', detail);
const text = z.string().max(2048);

function agentOf(json: string): Agent {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw malformed('agent must be a JSON Agent.');
  }
  const parsed = agentSchema.safeParse(value);
  if (!parsed.success) throw malformed('agent must be a JSON Agent with one identifier.');
  return parsed.data;
}

const checkIri = (name: string, v: string) => {
  if (!iri.safeParse(v).success) throw malformed(`${name} must be an IRI.`);
  return v;
};
const sinceOf = (v: string | undefined) => {
  if (v === undefined) return undefined;
  if (!timestamp.safeParse(v).success) throw malformed('since must be an ISO 8601 timestamp.');
  return new Date(v).toISOString();
};

/** The request's body as a document: its bytes and media type. */
function documentBody(request: FastifyRequest) {
  const raw = request.body;
  const content = Buffer.isBuffer(raw) ? raw : Buffer.from(raw === undefined ? '' : String(raw));
  return { contentType: String(request.headers['content-type'] ?? 'application/octet-stream'), content };
}

const header = (request: FastifyRequest, name: string) => {
  const v = request.headers[name];
  return typeof v === 'string' ? v : undefined;
};

async function sendDocument(
  o: LrsOptions,
  reply: FastifyReply,
  key: DocumentKey,
  docId: string | undefined,
  since: string | undefined,
) {
  const contextId = o.request.context.id;
  if (docId === undefined) return reply.send(await listDocumentIds(o.db, contextId, key, sinceOf(since)));
  const doc = await getDocument(o.db, contextId, key, docId);
  if (!doc) throw notFound('Document');
  return reply
    .header('content-type', doc.contentType)
    .header('etag', doc.etag)
    .header('last-modified', new Date(doc.updated).toUTCString())
    .send(doc.content);
}

export const documentRoutes: FastifyPluginAsyncZod<{ lrs: (r: FastifyRequest) => LrsOptions }> = async (
  app,
  { lrs },
) => {
  const tags = ['learning records'];

  /** Authenticates, checks the scope and, for launch credentials, that the agent is their learner. */
  const enter = async (request: FastifyRequest, need: Parameters<typeof requireScope>[1], agent?: Agent) => {
    const o = lrs(request);
    const p: Principal = await authenticate(o.db, request, o.now);
    requireScope(p, need);
    if (p.launch && agent && actorKey(agent) !== learnerKey(o, p.launch.userId))
      throw forbidden("These credentials reach only their learner's documents.");
    return { o, p };
  };

  /** The routes of one document resource, by its parameters. */
  function documentResource(
    url: string,
    kind: DocumentKind,
    idParam: 'stateId' | 'profileId',
    params: z.ZodObject,
    keyOf: (q: Record<string, string | undefined>) => { key: DocumentKey; agent?: Agent },
    scope: 'state' | 'profile',
  ) {
    const pre = (request: FastifyRequest, blind: boolean) => ({
      ifMatch: header(request, 'if-match'),
      ifNoneMatch: header(request, 'if-none-match'),
      blindOverwriteConflicts: blind,
    });
    const write = (mode: 'put' | 'post') => async (request: FastifyRequest, reply: FastifyReply) => {
      const q = request.query as Record<string, string | undefined>;
      const { key, agent } = keyOf(q);
      const { o, p } = await enter(request, `${scope}/write`, agent);
      if (p.launch && kind === 'activity-profile')
        throw forbidden('Launch credentials read activity profiles.');
      const docId = q[idParam];
      if (docId === undefined) throw malformed(`${idParam} is required.`);
      // cmi5 §10.2.1: the AU MUST NOT modify LMS.LaunchData; the LMS writes it (issue 31).
      if (p.launch && kind === 'state' && docId === 'LMS.LaunchData')
        throw forbidden('LMS.LaunchData is written by the LMS only.');
      // cmi5 §11: the learner preferences an AU writes are checked (issue 39).
      if (p.launch && kind === 'agent-profile' && docId === 'cmi5LearnerPreferences') {
        const refusal = learnerPreferencesRefusal(
          header(request, 'content-type'),
          documentBody(request).content,
        );
        if (refusal) throw forbidden(refusal);
      }
      // §3.1: a profile is never overwritten blind; State documents have no such rule.
      const blind = mode === 'put' && kind !== 'state';
      await writeDocument(
        o.db,
        o.kind,
        o.request.context.id,
        key,
        docId,
        documentBody(request),
        mode,
        pre(request, blind),
        o.now,
        // Charged to the learner of launch credentials; an administrator's client is nobody's.
        p.launch?.userId ?? null,
      );
      return reply.code(204).send();
    };
    const summary = `${kind} documents (xAPI-Communication.md)`;
    app.put(
      url,
      {
        preHandler: requireVersion,
        schema: { tags, summary, querystring: params, response: { 204: answers.stored } },
      },
      write('put'),
    );
    // With ?method=GET (Alternate Request Syntax, §1.3), a POST answers the document.
    app.post(
      url,
      {
        preHandler: requireVersion,
        schema: {
          tags,
          summary,
          querystring: params,
          response: { 200: answers.documentPosted, 204: answers.stored },
        },
      },
      write('post'),
    );
    app.get(
      url,
      {
        preHandler: requireVersion,
        schema: {
          tags,
          summary,
          querystring: params.extend({ since: text.optional() }),
          produces: ['application/json', '*/*'],
          response: { 200: answers.documentAnswer },
        },
      },
      async (request, reply) => {
        const q = request.query as Record<string, string | undefined>;
        const { key, agent } = keyOf(q);
        const { o, p } = await enter(request, `${scope}/read`, agent);
        if (q[idParam] !== undefined && q.since !== undefined)
          throw malformed(`since lists documents: no ${idParam}.`);
        // cmi5 §11: an AU reads the learner preferences before initialized; the session keeps
        // that it did (the one write of an xAPI read, decision 0062).
        if (p.launch && kind === 'agent-profile' && q[idParam] === 'cmi5LearnerPreferences')
          await afterPreferencesRead(o, p.launch);
        return sendDocument(o, reply, key, q[idParam], q.since);
      },
    );
    app.delete(
      url,
      {
        preHandler: requireVersion,
        schema: { tags, summary, querystring: params, response: { 204: answers.deleted } },
      },
      async (request, reply) => {
        const q = request.query as Record<string, string | undefined>;
        const { key, agent } = keyOf(q);
        const { o, p } = await enter(request, `${scope}/write`, agent);
        if (p.launch && kind === 'activity-profile')
          throw forbidden('Launch credentials read activity profiles.');
        if (p.launch && kind === 'state' && q[idParam] === 'LMS.LaunchData')
          throw forbidden('LMS.LaunchData is written by the LMS only.');
        // Deleting every document at once is the State resource's only (§2.3).
        if (kind !== 'state' && q[idParam] === undefined) throw malformed(`${idParam} is required.`);
        // cmi5 §10.2.1: "The AU MUST NOT modify or delete the LMS.LaunchData State document":
        // a launch's delete-all removes its own documents and leaves the LMS's.
        const keep = p.launch && kind === 'state' ? ['LMS.LaunchData'] : [];
        await deleteDocuments(o.db, o.kind, o.request.context.id, key, q[idParam], pre(request, false), keep);
        return reply.code(204).send();
      },
    );
  }

  documentResource(
    '/xapi/activities/state',
    'state',
    'stateId',
    z.strictObject({
      activityId: text,
      agent: text,
      registration: text.optional(),
      stateId: text.optional(),
    }),
    (q) => {
      const agent = agentOf(q.agent as string);
      if (q.registration !== undefined && !uuid.safeParse(q.registration).success)
        throw malformed('registration must be a UUID.');
      return {
        agent,
        key: {
          kind: 'state',
          activityId: checkIri('activityId', q.activityId as string),
          agentKey: actorKey(agent) as string,
          registration: q.registration?.toLowerCase() ?? '',
        },
      };
    },
    'state',
  );
  documentResource(
    '/xapi/activities/profile',
    'activity-profile',
    'profileId',
    z.strictObject({ activityId: text, profileId: text.optional() }),
    (q) => ({
      key: {
        kind: 'activity-profile',
        activityId: checkIri('activityId', q.activityId as string),
        agentKey: '',
        registration: '',
      },
    }),
    'profile',
  );
  documentResource(
    '/xapi/agents/profile',
    'agent-profile',
    'profileId',
    z.strictObject({ agent: text, profileId: text.optional() }),
    (q) => {
      const agent = agentOf(q.agent as string);
      return {
        agent,
        key: { kind: 'agent-profile', activityId: '', agentKey: actorKey(agent) as string, registration: '' },
      };
    },
    'profile',
  );

  // The Agents and Activities resources are read-only; a POST is only ever the Alternate
  // Request Syntax (§1.3), answered by the hook before it reaches these.
  for (const url of ['/xapi/agents', '/xapi/activities']) {
    app.post(url, { schema: { hide: true } }, async () => {
      throw new ApiError(405, 'VALIDATION_ERROR', 'This resource is read with GET.');
    });
  }

  // §2.4: the Person object of an agent; this LRS knows an agent by the one identifier it is given.
  app.get(
    '/xapi/agents',
    {
      preHandler: requireVersion,
      schema: {
        tags,
        summary: 'The Person object of an agent.',
        querystring: z.strictObject({ agent: text }),
        response: { 200: answers.person },
      },
    },
    async (request) => {
      const agent = agentOf(request.query.agent);
      await enter(request, 'define/read');
      // Each property a list of the one value known, absent when unknown (§2.4.1).
      return {
        objectType: 'Person' as const,
        ...(agent.name !== undefined ? { name: [agent.name] } : {}),
        ...(agent.mbox !== undefined ? { mbox: [agent.mbox] } : {}),
        ...(agent.mbox_sha1sum !== undefined ? { mbox_sha1sum: [agent.mbox_sha1sum] } : {}),
        ...(agent.openid !== undefined ? { openid: [agent.openid] } : {}),
        ...(agent.account !== undefined ? { account: [agent.account] } : {}),
      };
    },
  );

  // §2.5: the Activity object with the definition merged from every statement that named it.
  app.get(
    '/xapi/activities',
    {
      preHandler: requireVersion,
      schema: {
        tags,
        summary: 'The Activity object of an id.',
        querystring: z.strictObject({ activityId: text }),
        response: { 200: answers.activity },
      },
    },
    async (request) => {
      const id = checkIri('activityId', request.query.activityId);
      const { o } = await enter(request, 'define/read');
      return (await findActivity(o.db, o.request.context.id, id)) ?? { objectType: 'Activity' as const, id };
    },
  );
};
