import { stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resourceDocument, resourceDocumentSchema } from '../../plugins/jsonapi';
import { notFound } from '../scope';
import { findFile } from './repository';
import { downloadPath, htmlPlayerOf, toFileResource } from './service';

const params = z.object({ id: z.string().min(1) });
const noQuery = z.strictObject({ noCache: z.string().optional() });

export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  const filesDir = app.filesDir;
  if (filesDir) {
    // Only for reply.sendFile (ranges, ETag, conditional GET); nothing is served by URL here.
    await app.register(fastifyStatic, { root: path.resolve(filesDir), serve: false });
  }

  app.get(
    '/files/:id',
    {
      onRequest: app.auth.requireUser,
      schema: { tags: ['files'], summary: 'File metadata.', params, querystring: noQuery, response: { 200: resourceDocumentSchema } },
    },
    async (request) => {
      const row = await findFile(app.db, request.context.id, request.params.id);
      if (!row) throw notFound('File');
      return resourceDocument(toFileResource(row), []);
    },
  );

  app.get(
    '/files/:id/infos',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['files'],
        summary: 'File information with an HTML player for sounds and videos.',
        params,
        querystring: noQuery,
        response: {
          200: z.object({
            id: z.string(),
            name: z.string(),
            type: z.string(),
            fileType: z.string(),
            size: z.number(),
            download: z.string(),
            htmlPlayer: z.string().nullable(),
          }),
        },
      },
    },
    async (request) => {
      const row = await findFile(app.db, request.context.id, request.params.id);
      if (!row) throw notFound('File');
      return {
        id: row.id,
        name: row.name,
        type: row.type,
        fileType: row.fileType,
        size: row.size,
        download: downloadPath(row.id),
        htmlPlayer: htmlPlayerOf(row),
      };
    },
  );

  app.get(
    '/files/:id/download',
    {
      // Public within the tenant: <img>, <audio> and the tenant logo are fetched by the browser
      // without an Authorization header. Ids are random UUIDs, never listed to strangers.
      schema: { tags: ['files'], summary: 'The file content (tenant-scoped, no token needed).', params, querystring: noQuery },
    },
    async (request, reply) => {
      const row = await findFile(app.db, request.context.id, request.params.id);
      if (!row || !filesDir) throw notFound('File');
      const root = path.resolve(filesDir);
      const full = path.resolve(root, row.storagePath);
      // storagePath comes from the importer; refuse anything that would leave the files folder.
      if (!full.startsWith(root + path.sep)) throw notFound('File');
      const info = await stat(full).catch(() => null);
      if (!info?.isFile()) throw notFound('File');
      reply
        .header('content-type', row.type)
        .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(row.name)}`)
        // Same id can get new bytes on re-import: revalidate with the ETag after an hour.
        .header('cache-control', 'public, max-age=3600, must-revalidate')
        .header('vary', 'Host');
      return reply.sendFile(path.relative(root, full), root, { contentType: false, cacheControl: false });
    },
  );
};
