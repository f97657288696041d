import type { Document } from '@parcours/domain/entities';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { JsonApiQuery, Resource } from '../plugins/jsonapi';
import { collectionDocument, parseJsonApiQuery, resolveIncludes, resourceDocument } from '../plugins/jsonapi';
import { relations } from './relations';
import type { Scope } from './scope';
import { notFound, scopeOf } from './scope';

/** A page of primary data plus the requested includes, as a JSON:API collection document. */
export async function collection(
  scope: Scope,
  q: JsonApiQuery,
  data: Resource[],
  total: number,
): Promise<Document<Resource[]>> {
  const included = await resolveIncludes(scope, relations, data, q.include);
  return collectionDocument(data, included, total, q.page);
}

export async function single(scope: Scope, q: JsonApiQuery, data: Resource): Promise<Document<Resource>> {
  const included = await resolveIncludes(scope, relations, [data], q.include);
  return resourceDocument(data, included);
}

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];
type Db = Scope['db'];
type Viewer = Scope['viewer'];

/**
 * The read routes of a resource all say the same thing: signed-in only, the JSON:API query
 * checked against the resource's allow-lists, rows scoped to the viewer by the repository, then
 * serialised with their includes. These two helpers say it once.
 */
export function listRoute<Row>(
  app: ZodApp,
  r: {
    path: string;
    tag: string;
    summary: string;
    query: z.ZodType;
    /** The typed document answered (plugins/contract.ts `collectionOf`). */
    document: z.ZodType;
    list: (db: Db, viewer: Viewer, q: JsonApiQuery) => Promise<{ rows: Row[]; total: number }>;
    toResource: (row: Row) => Resource;
  },
): void {
  app.get(
    r.path,
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: [r.tag],
        summary: r.summary,
        querystring: r.query,
        response: { 200: r.document },
      },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query as Record<string, unknown>);
      const { rows, total } = await r.list(app.db, scope.viewer, q);
      return collection(scope, q, rows.map(r.toResource), total);
    },
  );
}

const idParams = z.object({ id: z.string().min(1) });

export function oneRoute<Row>(
  app: ZodApp,
  r: {
    path: string;
    tag: string;
    summary: string;
    query: z.ZodType;
    /** The typed document answered (plugins/contract.ts `documentOf`). */
    document: z.ZodType;
    /** Named in the 404 detail: "Class not found." */
    name: string;
    find: (db: Db, viewer: Viewer, id: string) => Promise<Row | undefined>;
    toResource: (row: Row) => Resource;
  },
): void {
  app.get(
    r.path,
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: [r.tag],
        summary: r.summary,
        params: idParams,
        querystring: r.query,
        response: { 200: r.document },
      },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query as Record<string, unknown>);
      const row = await r.find(app.db, scope.viewer, request.params.id);
      if (!row) throw notFound(r.name);
      return single(scope, q, r.toResource(row));
    },
  );
}
