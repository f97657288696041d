import { z } from 'zod';
import type { RecordAttributes } from '@parcours/domain/contract/dashboard';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { parseJson } from '../../db/schema';
import { filterValue, jsonApiQuerySchema, parseJsonApiQuery } from '../../plugins/jsonapi';
import type { Resource } from '../../plugins/jsonapi';
import { collection } from '../respond';
import { ownUserIds, scopeOf } from '../scope';
import { listRecords } from './repository';
import type { RecordRow } from './repository';
import { collectionOf } from '../../plugins/contract';
import { recordResource } from '../../plugins/resources';

const listQuery = jsonApiQuerySchema({
  filters: {
    userId: filterValue,
    before: z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'An ISO 8601 date or instant.'),
  },
  sorts: ['date'],
  paginated: true,
});

export type { RecordAttributes };

function toRecordResource(row: RecordRow): Resource {
  const s = parseJson<Partial<RecordAttributes['scoring']>>(row.scoring, {});
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const attributes: RecordAttributes = {
    userId: row.userId,
    date: row.date,
    scoring: { xp: n(s.xp), donePageCount: n(s.donePageCount), timeAlive: n(s.timeAlive) },
  };
  return { type: 'records', id: row.id, attributes: { ...attributes } };
}

/** Score snapshots (docs/product.md §3 Record, §7 `records`): by learner, sorted by date, before a date. */
export const recordRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/records',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['records'],
        summary:
          "The learner's score records (`filter[userId]` = own id or `me`; `filter[before]` strictly before an instant).",
        querystring: listQuery,
        response: { 200: collectionOf(recordResource) },
      },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const requested = q.filters.userId?.map((u) => (u === 'me' ? scope.viewer.userId : u));
      const beforeText = q.filters.before?.[0];
      // Stored dates are UTC ISO strings: compare in the same form, whatever offset was sent.
      const before = beforeText ? new Date(beforeText).toISOString() : null;
      const { rows, total } = await listRecords(
        app.db,
        scope.viewer,
        ownUserIds(scope.viewer, requested),
        q,
        before,
      );
      return collection(scope, q, rows.map(toRecordResource), total);
    },
  );
};
