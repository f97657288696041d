import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../plugins/errors';

/**
 * The Alternate Request Syntax (xAPI-Communication.md §1.3): a POST with `?method=` and nothing
 * else in the query, its body a form whose header fields become headers, `content` the body and
 * the other fields the query. Re-dispatched inside the app as the request it stands for, so it
 * meets exactly the same routes, checks and answers.
 */
const HEADER_FIELDS = new Set([
  'authorization',
  'x-experience-api-version',
  'content-type',
  'content-length',
  'if-match',
  'if-none-match',
]);
const METHODS = new Set(['GET', 'HEAD', 'PUT', 'POST', 'DELETE']);
const malformed = (detail: string) => new ApiError(400, 'VALIDATION_ERROR', detail);

export async function alternateRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const q = request.query as Record<string, unknown>;
  if (request.method !== 'POST' || q.method === undefined) return false;
  if (Object.keys(q).length !== 1) throw malformed('With ?method=, everything else goes in the form.');
  const method = String(q.method).toUpperCase();
  if (!METHODS.has(method)) throw malformed('method is GET, HEAD, PUT, POST or DELETE.');
  if (!/^application\/x-www-form-urlencoded\b/i.test(String(request.headers['content-type'] ?? '')))
    throw malformed('The Alternate Request Syntax sends an application/x-www-form-urlencoded form.');
  const raw = request.body;
  const form = new URLSearchParams(Buffer.isBuffer(raw) ? raw.toString('utf8') : '');
  const headers: Record<string, string> = { host: String(request.headers.host ?? '') };
  for (const h of ['authorization', 'x-experience-api-version', 'accept-language'] as const) {
    const v = request.headers[h];
    if (typeof v === 'string') headers[h] = v;
  }
  const query = new URLSearchParams();
  let content: string | undefined;
  for (const [k, v] of form) {
    const lower = k.toLowerCase();
    if (lower === 'content-length') continue;
    if (HEADER_FIELDS.has(lower)) headers[lower] = v;
    else if (k === 'content') content = v;
    else query.append(k, v);
  }
  if (content !== undefined) headers['content-type'] ??= 'application/json';
  else delete headers['content-type'];
  const path = request.url.split('?')[0] as string;
  const res = await app.inject({
    method: method as 'GET',
    url: `${path}${query.size > 0 ? `?${query}` : ''}`,
    headers,
    ...(content === undefined ? {} : { payload: content }),
  });
  for (const [k, v] of Object.entries(res.headers)) {
    if (!['content-length', 'transfer-encoding', 'connection', 'date'].includes(k) && v !== undefined)
      reply.header(k, v);
  }
  await reply.code(res.statusCode).send(res.rawPayload);
  return true;
}
