import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FileStore } from './store';

/**
 * A stored object streamed through the API (decision 0036), with what @fastify/static gives the
 * disk store: one byte range (`Range: bytes=a-b`, `a-`, `-n`: video and PDF viewers seek), an
 * ETag and conditional GET (If-None-Match, answered 304 without reading the object). Headers
 * about the file (type, disposition, caching) are set by the caller. Resolves false when the
 * store has no such object.
 */
export async function sendStored(
  request: FastifyRequest,
  reply: FastifyReply,
  store: FileStore,
  key: string,
): Promise<boolean> {
  const asked = parseRange(request.headers.range);
  let range: { start: number; end?: number } | undefined;
  if (asked !== undefined) {
    // A range is checked against the size first: a range past the end is 416, never a store error.
    const size = await store.size(key);
    if (size === null) return false;
    const start =
      asked === 'invalid' ? size : 'suffix' in asked ? Math.max(0, size - asked.suffix) : asked.start;
    if (start >= size) {
      await reply.code(416).header('content-range', `bytes */${size}`).send();
      return true;
    }
    const end = asked !== 'invalid' && 'end' in asked && asked.end !== undefined ? asked.end : size - 1;
    range = { start, end: Math.min(end, size - 1) };
  }
  const object = await store.open(key, range);
  if (!object) return false;
  if (object.etag) reply.header('etag', object.etag);
  if (object.lastModified) reply.header('last-modified', object.lastModified.toUTCString());
  reply.header('accept-ranges', 'bytes');
  const inm = request.headers['if-none-match'];
  if (object.etag && typeof inm === 'string' && inm.split(/\s*,\s*/).includes(object.etag)) {
    object.body.destroy();
    await reply.code(304).send();
    return true;
  }
  if (object.range) {
    reply.code(206).header('content-range', `bytes ${object.range.start}-${object.range.end}/${object.size}`);
  }
  reply.header('content-length', object.length);
  await reply.send(object.body);
  return true;
}

type Asked = { start: number; end?: number } | { suffix: number } | 'invalid' | undefined;

/** One range of a Range header; several ranges are answered whole (allowed by RFC 9110 §14.2). */
function parseRange(header: string | undefined): Asked {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return header.includes(',') ? undefined : 'invalid';
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return 'invalid';
  if (a === '') return { suffix: Number(b) };
  const start = Number(a);
  if (b !== '' && Number(b) < start) return 'invalid';
  return b === '' ? { start } : { start, end: Number(b) };
}
