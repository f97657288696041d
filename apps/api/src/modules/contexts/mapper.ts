import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import {
  collectionDocument,
  filterValue,
  jsonApiQuerySchema,
  parseJsonApiQuery,
} from '../../plugins/jsonapi';
import type { Resource } from '../../plugins/jsonapi';
import { groupBy } from '../scope';
import { collectionOf } from '../../plugins/contract';
import { contextMapResource } from '../../plugins/resources';

/**
 * docs/product.md §7 `GET contexts`, the context mapper: which tenant answers on which host, and where its
 * API lives, so a front end served from one place can find its tenant. Public and read before
 * sign-in, so it carries the routing fields only — never settings, metas or any secret.
 */
export async function contextMap(db: Db, filters: Record<string, string[]>): Promise<Resource[]> {
  let qb = db.selectFrom('contexts').select(['id', 'alias', 'name', 'hosts', 'isGeneric']);
  if (filters.alias) qb = qb.where('alias', 'in', filters.alias);
  if (filters.hostname) {
    qb = qb.where(
      'id',
      'in',
      db.selectFrom('contextHostnames').select('contextId').where('hostname', 'in', filters.hostname),
    );
  }
  const rows = await qb.orderBy('alias').orderBy('id').execute();
  const hostnames = rows.length
    ? groupBy(
        await db
          .selectFrom('contextHostnames')
          .select(['hostname', 'contextId'])
          .where(
            'contextId',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('hostname')
          .execute(),
        (h) => h.contextId,
      )
    : new Map<string, { hostname: string }[]>();
  return rows.map((row) => {
    const hosts = parseJson<Record<string, unknown>>(row.hosts, {});
    const publicHosts = Object.fromEntries(
      Object.entries(hosts ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    return {
      type: 'contexts',
      id: row.id,
      attributes: {
        alias: row.alias,
        name: row.name,
        hosts: publicHosts,
        hostnames: (hostnames.get(row.id) ?? []).map((h) => h.hostname),
        isGeneric: row.isGeneric === 1,
      },
    };
  });
}

export const contextMapperRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/contexts',
    {
      schema: {
        tags: ['contexts'],
        summary: 'The context mapper: every tenant with its hostnames and hosts (public fields only).',
        querystring: jsonApiQuerySchema({ filters: { alias: filterValue, hostname: filterValue } }),
        response: { 200: collectionOf(contextMapResource) },
      },
    },
    async (request, reply) => {
      const q = parseJsonApiQuery(request.query as Record<string, unknown>);
      const data = await contextMap(app.db, q.filters);
      reply.header('cache-control', 'public, max-age=60');
      return collectionDocument(data, [], data.length, { number: 1, size: Math.max(data.length, 1) });
    },
  );
};
