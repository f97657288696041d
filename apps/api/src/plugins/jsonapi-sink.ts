import type { FastifyInstance } from 'fastify';

/**
 * A seam for the test suite's JSON:API conformance check (test/jsonapi/setup.ts): when a sink
 * function is installed on globalThis under this symbol before the app is built, every JSON
 * response is handed to it. Production never installs one, so no hook is added there.
 */
export const JSONAPI_SINK = Symbol.for('parcours.jsonapi-sink');

export interface SentJson {
  method: string;
  url: string;
  statusCode: number;
  body: string;
  /** The route's declared response schema for this status (the contract check of issue 40). */
  schema: unknown;
}

export function registerJsonApiSink(app: FastifyInstance): void {
  const sink = (globalThis as Record<symbol, unknown>)[JSONAPI_SINK];
  if (typeof sink !== 'function') return;
  const record = sink as (sent: SentJson) => void;
  app.addHook('onSend', async (request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    // Cached answers are sent as their UTF-8 bytes (lib/answer-cache.ts): checked the same.
    const body =
      typeof payload === 'string'
        ? payload
        : Buffer.isBuffer(payload) && !reply.getHeader('content-encoding')
          ? payload.toString('utf8')
          : null;
    if (body !== null && /json/.test(type)) {
      const responses = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
      const schema = responses?.[String(reply.statusCode)];
      record({ method: request.method, url: request.url, statusCode: reply.statusCode, body, schema });
    }
    return payload;
  });
}
