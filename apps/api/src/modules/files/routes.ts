import { stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendStored } from '../../files/serve';
import { isSafeKey } from '../../files/store';
import { currentUser } from '../../plugins/auth';
import { noBody, storedContent } from '../../plugins/answers';
import { ApiError } from '../../plugins/errors';
import { resourceDocument } from '../../plugins/jsonapi';
import { findViewer } from '../users/repository';
import { notFound } from '../scope';
import { findFile, isBrandingFile, mayReadFile } from './repository';
import type { FileRow } from './repository';
import { downloadPath, htmlPlayerOf, toFileResource } from './service';
import { downloadSigner } from './signing';
import { documentOf } from '../../plugins/contract';
import { fileResource } from '../../plugins/resources';

export interface FileRoutesOptions {
  /** JWT_SECRET: download URLs are signed with a key derived from it (signing.ts). */
  secret: string;
}

const params = z.object({ id: z.string().min(1).max(200) });
const noQuery = z.strictObject({ noCache: z.string().optional() });
const downloadQuery = z.strictObject({
  noCache: z.string().optional(),
  u: z.string().max(200).optional(),
  exp: z.string().max(20).optional(),
  sig: z.string().max(100).optional(),
});

// Shown in the page (inline) only where the browser renders them as media, never as a document
// of the API's origin: raster images, sounds, videos and PDFs. SVG and everything else download.
const INLINE = /^(image\/(png|jpeg|gif|webp|avif)|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf)$/i;

function contentDisposition(row: FileRow): string {
  const ascii = row.name.replace(/[^A-Za-z0-9._ -]/g, '_').slice(0, 150) || 'file';
  return `${INLINE.test(row.type) ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(row.name)}`;
}

export const fileRoutes: FastifyPluginAsyncZod<FileRoutesOptions> = async (app, opts) => {
  const filesDir = app.filesDir;
  const signer = downloadSigner(opts.secret);
  if (filesDir) {
    // Only for reply.sendFile (ranges, ETag, conditional GET); nothing is served by URL here.
    await app.register(fastifyStatic, { root: path.resolve(filesDir), serve: false });
  }

  /** The file, if the signed-in user may read it; 404 otherwise, as for a file that does not exist. */
  async function readable(request: FastifyRequest, id: string, userId: string): Promise<FileRow> {
    const row = await findFile(app.db, request.context.id, id);
    if (!row || !(await mayReadFile(app.db, row, userId))) throw notFound('File');
    return row;
  }

  app.get(
    '/files/:id',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['files'],
        summary: 'File metadata.',
        params,
        querystring: noQuery,
        response: { 200: documentOf(fileResource) },
      },
    },
    async (request) =>
      resourceDocument(
        toFileResource(await readable(request, request.params.id, currentUser(request).id)),
        [],
      ),
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
      const row = await readable(request, request.params.id, currentUser(request).id);
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
      schema: {
        tags: ['files'],
        summary:
          'The file content: public for tenant branding; otherwise a bearer token or the signed URL (u, exp, sig) the API gave, for a user who may see the file.',
        params,
        querystring: downloadQuery,
        produces: ['*/*'],
        response: {
          200: storedContent('The file, in its own media type (an attachment, or inline for media).'),
          206: storedContent('The range asked for (Range).'),
          304: noBody('Unchanged since the ETag the browser holds (If-None-Match).'),
        },
      },
    },
    async (request, reply) => {
      const row = await findFile(app.db, request.context.id, request.params.id);
      const store = app.files;
      if (!row || (!filesDir && store?.kind !== 's3')) throw notFound('File');
      const branding = row.ownerId === null && isBrandingFile(request.context.assets, row.id);
      if (!branding) {
        let userId: string;
        if (request.query.sig !== undefined) {
          // <img>, <audio>, links and the PDF viewer send no header: the URL proves who asks.
          // The signer's user, then the signature against their current revocation instant.
          const viewer = request.query.u
            ? await findViewer(app.db, request.context.id, request.query.u)
            : null;
          const signed =
            viewer && signer.verify(row.id, request.context.id, request.query, viewer.row.tokensValidAfter);
          if (!signed) throw new ApiError(401, 'UNAUTHORIZED', 'The download link is invalid or expired.');
          userId = signed;
        } else {
          await app.auth.requireUser(request);
          userId = currentUser(request).id;
        }
        if (!(await mayReadFile(app.db, row, userId))) throw notFound('File');
      }
      const headers = {
        'content-type': row.type,
        'content-disposition': contentDisposition(row),
        'x-content-type-options': 'nosniff',
        // Same id can get new bytes on re-import: revalidate with the ETag after an hour. A private
        // file is revalidated at every use (a 304 for its reader): a browser's HTTP cache must
        // not hand it to the next person of a shared device, whom the server refuses (decision
        // 0045; the service worker keeps the offline copies, per learner).
        'cache-control': branding ? 'public, max-age=3600, must-revalidate' : 'private, no-cache',
        vary: 'Host',
      };
      if (store?.kind === 's3') {
        // Streamed through the API, ranges and ETag included (decision 0036).
        if (!isSafeKey(row.storagePath)) throw notFound('File');
        reply.headers(headers);
        if (!(await sendStored(request, reply, store, row.storagePath))) throw notFound('File');
        return reply;
      }
      const root = path.resolve(filesDir!);
      const full = path.resolve(root, row.storagePath);
      // storagePath comes from the importer; refuse anything that would leave the files folder.
      if (!full.startsWith(root + path.sep)) throw notFound('File');
      const info = await stat(full).catch(() => null);
      if (!info?.isFile()) throw notFound('File');
      reply.headers(headers);
      return reply.sendFile(path.relative(root, full), root, { contentType: false, cacheControl: false });
    },
  );
};
