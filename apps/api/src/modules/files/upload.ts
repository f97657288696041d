import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MIME_TYPES,
  LOGBOOK_MESSAGE_KEYS,
  attachmentFileType,
  normaliseMimeType,
  sniffAttachmentType,
} from '@parcours/domain/logbook';
import type { UploadedFileAttributes } from '@parcours/domain/logbook';
import type { Db } from '../../db/db';
import type { FilesTable } from '../../db/schema';
import { ApiError } from '../../plugins/errors';
import type { Resource } from '../../plugins/jsonapi';
import { recordUpload } from '../quotas/uploads';
import { scopeOf } from '../scope';
import { downloadPath } from './service';
import { documentOf } from '../../plugins/contract';
import { uploadedFileResource } from '../../plugins/resources';

type FileRow = Selectable<FilesTable>;

/**
 * An upload's id is its only secret until downloads check who asks: 144 random bits, never
 * derived from the name, the owner or the time.
 */
export function newFileId(): string {
  return randomBytes(18).toString('base64url');
}

const NAME_MAX = 200;
// Control characters would break headers and logs; quotes, the Content-Disposition parameter.
// eslint-disable-next-line no-control-regex
const CONTROL_OR_QUOTE = /[\u0000-\u001f\u007f"]/g;

/** A file name as the learner's system gave it, reduced to a harmless display name. */
export function safeFileName(raw: string | undefined, fallback: string): string {
  // Browsers send a base name, other clients may not; both separators count.
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(CONTROL_OR_QUOTE, '').trim().slice(0, NAME_MAX);
  return clean || fallback;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/gif': '.gif',
  'application/pdf': '.pdf',
};

/** An uploaded file as a `files` resource: the mime type is `mimeType`, never `type` (JSON:API). */
export function toUploadedFileResource(row: FileRow): Resource {
  const attributes: UploadedFileAttributes = {
    name: row.name,
    mimeType: row.type,
    fileType: row.fileType,
    size: Number(row.size),
    ownerId: row.ownerId,
    download: downloadPath(row.id),
    createdAt: row.createdAt,
  };
  return { type: 'files', id: row.id, attributes: { ...attributes } };
}

/** Files of the tenant by id (for includes of what the viewer may already see). */
export async function filesByIds(db: Db, contextId: string, ids: string[]): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('files')
    .selectAll()
    .where('contextId', '=', contextId)
    .where('id', 'in', ids)
    .execute();
}

const TYPE_LIST = ATTACHMENT_MIME_TYPES.join(', ');

function tooLarge(): ApiError {
  return new ApiError(413, 'TYPE_ERROR', LOGBOOK_MESSAGE_KEYS.fileSize, { pointer: '/file' });
}

function multipartError(err: unknown): ApiError | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return new ApiError(400, 'BAD_REQUEST', 'Send one file per request, in a field named "file".', {
      pointer: '/file',
    });
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new ApiError(415, 'BAD_REQUEST', 'Send the file as multipart/form-data.');
  }
  return null;
}

export interface UploadRoutesOptions {
  now?: () => Date;
  /** Tests lower it to check the limit without megabytes of data. */
  maxBytes?: number;
}

/**
 * POST /files: one attachment (logbook notes) per request. Only JPEG, PNG, GIF and PDF, told
 * by their bytes; the declared type must agree, so a renamed page or script is refused with
 * TYPE_ERROR. The row's owner is the uploader: attaching the file to a note checks it.
 */
export const uploadRoutes: FastifyPluginAsyncZod<UploadRoutesOptions> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());
  const maxBytes = opts.maxBytes ?? ATTACHMENT_MAX_BYTES;
  // Registered in this plugin only: no other route of the API accepts multipart bodies.
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 0, parts: 1, headerPairs: 50 },
    throwFileSizeLimit: true,
  });

  app.post(
    '/files',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['files'],
        summary: `Uploads one attachment (multipart field "file"; ${TYPE_LIST}; at most ${maxBytes} bytes).`,
        consumes: ['multipart/form-data'],
        querystring: z.strictObject({}),
        response: { 201: documentOf(uploadedFileResource) },
      },
    },
    async (request, reply) => {
      const store = app.files;
      if (!store) throw new ApiError(503, 'UNDEFINED', 'This server stores no files.');
      const scope = scopeOf(app.db, request);

      let part: Awaited<ReturnType<typeof request.file>>;
      let bytes: Buffer;
      // The parts are read to the end: a second file used to be dropped silently, the first kept
      // (issue 29); busboy's parts limit now surfaces as FST_PARTS_LIMIT, a 400.
      const parts = request.parts();
      try {
        part = (await parts.next()).value as typeof part;
        if (!part)
          throw new ApiError(400, 'BAD_REQUEST', 'No file was sent (multipart field "file").', {
            pointer: '/file',
          });
        if (part.fieldname !== 'file') {
          throw new ApiError(400, 'BAD_REQUEST', 'Send the file in a field named "file".', {
            pointer: '/file',
          });
        }
        bytes = await part.toBuffer();
        if (!(await parts.next()).done) {
          throw new ApiError(400, 'BAD_REQUEST', 'Send one file per request, in a field named "file".', {
            pointer: '/file',
          });
        }
      } catch (err) {
        throw multipartError(err) ?? err;
      }
      if (bytes.length > maxBytes) throw tooLarge();
      if (bytes.length === 0)
        throw new ApiError(400, 'TYPE_ERROR', LOGBOOK_MESSAGE_KEYS.fileType, { pointer: '/file' });

      const real = sniffAttachmentType(bytes);
      if (!real || real !== normaliseMimeType(part.mimetype)) {
        throw new ApiError(400, 'TYPE_ERROR', LOGBOOK_MESSAGE_KEYS.fileType, { pointer: '/file' });
      }

      const id = newFileId();
      const storagePath = path.posix.join(
        'uploads',
        scope.viewer.contextId,
        `${id}${EXTENSIONS[real] ?? ''}`,
      );
      // Whole or not at all (the store's put), before the row that lets anyone ask for it.
      await store.put(storagePath, bytes, real);

      const iso = now().toISOString();
      const row: FileRow = {
        id,
        contextId: scope.viewer.contextId,
        libraryId: null,
        ownerId: scope.viewer.userId,
        name: safeFileName(part.filename, `${attachmentFileType(real)}${EXTENSIONS[real] ?? ''}`),
        type: real,
        fileType: attachmentFileType(real),
        icon: null,
        size: bytes.length,
        storagePath,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        createdAt: iso,
        updatedAt: iso,
      };
      try {
        // Within the uploader's quotas (issue 29), or refused and nothing kept.
        await recordUpload(app.db, app.dbKind, app.quotas, { ...row, ownerId: scope.viewer.userId }, now());
      } catch (err) {
        await store.remove(storagePath).catch(() => undefined);
        throw err;
      }
      return reply.code(201).send({ data: toUploadedFileResource(row) });
    },
  );
};
