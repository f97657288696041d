import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors';
import type { ErrorSource } from './errors';

/**
 * Text the databases cannot store is refused before any route sees it. PostgreSQL rejects NUL
 * (22021) and SQLite keeps it, and a lone UTF-16 surrogate becomes U+FFFD or an error depending
 * on the driver: the same request would answer differently on the two databases, and a 500 on
 * PostgreSQL. One check for params, query and body (keys and values) covers every route, so no
 * route's zod schema has to remember it.
 */

// NUL, or a surrogate half without its partner.
// eslint-disable-next-line no-control-regex -- finding NUL is the point of this pattern.
const ILL_FORMED = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// Bodies are small JSON documents; a deeper one is not ours, and the walk must stay bounded.
const MAX_DEPTH = 64;

/** The JSON pointer of the first ill-formed string (or key) in `value`, or null. */
export function findIllFormed(value: unknown, pointer = '', depth = 0): string | null {
  if (typeof value === 'string') return ILL_FORMED.test(value) ? pointer || '/' : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findIllFormed(value[i], `${pointer}/${i}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (ILL_FORMED.test(key)) return at;
    const found = findIllFormed(item, at, depth + 1);
    if (found) return found;
  }
  return null;
}

function refuse(source: ErrorSource): ApiError {
  return new ApiError(
    400,
    'VALIDATION_ERROR',
    'Text must not contain NUL characters or invalid Unicode.',
    source,
  );
}

function urlError(request: FastifyRequest): ApiError | undefined {
  const params = findIllFormed(request.params);
  if (params) return refuse({ parameter: params.slice(1).split('/')[0] ?? '' });
  const query = findIllFormed(request.query);
  if (query) return refuse({ parameter: query.slice(1).split('/')[0] ?? '' });
  return undefined;
}

/**
 * Registered on the root instance, before anything that reads the request. Callback hooks: they
 * run on every request, and an async hook costs a promise and a microtask each time.
 */
export function registerWellFormedText(app: FastifyInstance): void {
  // onRequest: before the tenant, the token and every route's own hooks read params or query.
  app.addHook('onRequest', (request, _reply, done) => {
    done(urlError(request));
  });
  // The body exists only after parsing; preValidation runs before the route's zod schema.
  app.addHook('preValidation', (request, _reply, done) => {
    const body = findIllFormed(request.body);
    done(body ? refuse({ pointer: body }) : undefined);
  });
}
