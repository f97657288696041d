import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { logBookRecordCreateSchema, logBookRecordUpdateSchema } from '@parcours/domain/logbook';
import {
  collectionDocument,
  expandIncludes,
  filterValue,
  jsonApiQuerySchema,
  parseJsonApiQuery,
  resolveIncludes,
  resourceDocument,
} from '../../plugins/jsonapi';
import type { Relation, Relations, Resource } from '../../plugins/jsonapi';
import { filesByIds, toUploadedFileResource } from '../files/upload';
import type { Scope } from '../scope';
import { scopeOf } from '../scope';
import { authorsByIds, listLogBookRecords } from './repository';
import { toAuthorResource, toLogBookRecordResource } from './serializer';
import { allowedStudentIds, createLogBookRecord, updateLogBookRecordOf } from './service';
import { collectionOf, documentOf } from '../../plugins/contract';
import { logBookRecordResource, publicUserResource, uploadedFileResource } from '../../plugins/resources';

const INCLUDES = ['user', 'student', 'attachments'] as const;

/** Authors and students: public profile of users the viewer already sees through the note. */
function userRel(fk: 'userId' | 'studentId'): Relation<Scope> {
  return {
    many: false,
    async load({ db, viewer }, parents) {
      const idOf = (p: Resource) => String(p.attributes[fk]);
      const rows = await authorsByIds(db, viewer.contextId, [...new Set(parents.map(idOf))]);
      const byId = new Map(rows.map((r) => [r.id, toAuthorResource(r, viewer.userId)]));
      return new Map(parents.map((p) => [p.id, byId.has(idOf(p)) ? [byId.get(idOf(p)) as Resource] : []]));
    },
  };
}

const relations: Relations<Scope> = {
  'log-book-records': {
    user: userRel('userId'),
    student: userRel('studentId'),
    attachments: {
      many: true,
      async load({ db, viewer }, parents) {
        const idsOf = (p: Resource) =>
          Array.isArray(p.attributes.attachmentIds) ? (p.attributes.attachmentIds as string[]) : [];
        const rows = await filesByIds(db, viewer.contextId, [...new Set(parents.flatMap(idsOf))]);
        const byId = new Map(rows.map((r) => [r.id, toUploadedFileResource(r)]));
        // In the note's order; a file removed since is left out rather than failing the read.
        return new Map(
          parents.map((p) => [
            p.id,
            idsOf(p).flatMap((id) => (byId.has(id) ? [byId.get(id) as Resource] : [])),
          ]),
        );
      },
    },
  },
};

const includeList = z.string().superRefine((value, ctx) => {
  for (const token of value.split(',')) {
    if (!(INCLUDES as readonly string[]).includes(token)) {
      ctx.addIssue({
        code: 'custom',
        message: `Unknown populate "${token}". Allowed: ${INCLUDES.join(', ')}.`,
      });
    }
  }
});

const listQuery = jsonApiQuerySchema(
  {
    filters: { studentId: filterValue, companyId: filterValue },
    sorts: ['createdAt', 'lastInputAt'],
    includes: INCLUDES,
    paginated: true,
  },
  // docs/product.md §7 says "populate user": the same as include=user.
  { populate: includeList.optional() },
);
const idParams = z.object({ id: z.string().min(1).max(200) });
const noQuery = z.strictObject({});

/** docs/product.md §3, §7 log-book-records: the logbook's notes (docs/api.md "Logbook"). */
export const logBookRecordRoutes: FastifyPluginAsyncZod<{ now?: () => Date }> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());
  /** Writes answer with the author and attachments, which the dialog shows at once. */
  const withIncludes = async (scope: Scope, resource: Resource) =>
    resourceDocument(resource, await resolveIncludes(scope, relations, [resource], ['user', 'attachments']));

  app.get(
    '/log-book-records',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['log-book-records'],
        summary:
          'Notes about a student (`filter[studentId]`: `me` by default, or a student of a class you teach), newest first.',
        querystring: listQuery,
        response: { 200: collectionOf(logBookRecordResource, [publicUserResource, uploadedFileResource]) },
      },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const raw = request.query as Record<string, unknown>;
      const q = parseJsonApiQuery(raw);
      const populate = typeof raw.populate === 'string' ? raw.populate.split(',') : [];
      const include = expandIncludes([...q.include, ...populate]);
      const studentIds = await allowedStudentIds(app.db, scope.viewer, q.filters.studentId);
      const { rows, total } = await listLogBookRecords(
        app.db,
        scope.viewer,
        { studentIds, companyIds: q.filters.companyId ?? null },
        q,
      );
      const data = rows.map(toLogBookRecordResource);
      return collectionDocument(data, await resolveIncludes(scope, relations, data, include), total, q.page);
    },
  );

  app.post(
    '/log-book-records',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['log-book-records'],
        summary: 'Adds a note: about yourself, or (teacher) about a student of the class named by classId.',
        querystring: noQuery,
        body: logBookRecordCreateSchema,
        response: { 201: documentOf(logBookRecordResource, [publicUserResource, uploadedFileResource]) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(app.db, request);
      const row = await createLogBookRecord(app.db, app.dbKind, scope.viewer, request.body, now());
      return reply.code(201).send(await withIncludes(scope, toLogBookRecordResource(row)));
    },
  );

  app.patch(
    '/log-book-records/:id',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['log-book-records'],
        summary: 'Edits a note (its author only): title, message, attachments.',
        params: idParams,
        querystring: noQuery,
        body: logBookRecordUpdateSchema,
        response: { 200: documentOf(logBookRecordResource, [publicUserResource, uploadedFileResource]) },
      },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      const row = await updateLogBookRecordOf(
        app.db,
        app.dbKind,
        scope.viewer,
        request.params.id,
        request.body,
        now(),
      );
      return withIncludes(scope, toLogBookRecordResource(row));
    },
  );
};
