import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_HTTP_STATUS } from '@parcours/domain/errors';
import type { ErrorCode } from '@parcours/domain/errors';
import type { ApiErrorObject } from '@parcours/domain/entities';
import { isReadOnlyRefusal } from '../db/read-only';

/**
 * One place turns every failure into a JSON:API error document (docs/api.md "Errors"), so
 * services only throw `ApiError` and never shape HTTP answers themselves.
 */

const TITLES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'Invalid request',
  UNAUTHORIZED: 'Authentication required',
  NOT_FOUND: 'Not found',
  MODEL_NOT_FOUND: 'Resource not found',
  Forbidden: 'Access denied',
  TOO_MANY_REQUESTS: 'Too many requests',
  INVALID_PASSWORD: 'Invalid e-mail or password',
  BAD_REQUEST: 'Bad request',
  UNDEFINED: 'An error occurred',
};

export type ErrorSource = ApiErrorObject['source'];

export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly errors: ApiErrorObject[];
  /** Seconds sent as `Retry-After` (a quota's period, issue 29). */
  retryAfter?: number;

  constructor(status: number | null, code: ErrorCode, detail?: string, source?: ErrorSource) {
    super(detail ?? code);
    this.statusCode = status ?? ERROR_HTTP_STATUS[code];
    this.code = code;
    this.errors = [errorObject(this.statusCode, code, detail, source)];
  }

  /** Several problems at once (e.g. two unknown query parameters), all 400 VALIDATION_ERROR. */
  static validation(problems: { detail: string; source?: ErrorSource }[]): ApiError {
    const error = new ApiError(400, 'VALIDATION_ERROR', problems[0]?.detail, problems[0]?.source);
    error.errors.splice(
      0,
      1,
      ...problems.map((p) => errorObject(400, 'VALIDATION_ERROR', p.detail, p.source)),
    );
    return error;
  }
}

export function errorObject(
  status: number,
  code: ErrorCode,
  detail?: string,
  source?: ErrorSource,
): ApiErrorObject {
  return {
    status: String(status),
    code,
    title: TITLES[code] ?? code,
    ...(detail === undefined ? {} : { detail }),
    ...(source === undefined ? {} : { source }),
  };
}

function send(reply: FastifyReply, status: number, errors: ApiErrorObject[]): FastifyReply {
  // JSON:API wants the errors array without duplicates (two bad values of one parameter give two
  // identical objects otherwise).
  const seen = new Set<string>();
  const unique = errors.filter((e) => {
    const key = JSON.stringify(e);
    return seen.has(key) ? false : (seen.add(key), true);
  });
  return reply.code(status).type('application/json; charset=utf-8').send({ errors: unique });
}

type ValidationContext = 'body' | 'querystring' | 'params' | 'headers' | string | undefined;

function sourceOf(context: ValidationContext, path: string): ErrorSource {
  if (context === 'body') return { pointer: path === '' ? '/' : path };
  // Query keys such as `filter[userId]` are flat, so the first segment is the parameter name.
  return { parameter: path.replace(/^\//, '').split('/')[0] ?? '' };
}

// Fastify's own 4xx errors (body parsing, media type, size) keep their status, with our codes.
const BODY_ERRORS: Record<string, { status: number; code: ErrorCode; detail: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'VALIDATION_ERROR',
    detail: 'The body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'VALIDATION_ERROR', detail: 'The body is empty.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'BAD_REQUEST', detail: 'Unsupported content type.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'BAD_REQUEST', detail: 'Invalid content length.' },
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'VALIDATION_ERROR',
    detail: 'The URL is not valid (bad percent-encoding).',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'BAD_REQUEST', detail: 'The body is too large.' },
};

export function errorHandler(
  this: FastifyInstance,
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof ApiError) {
    if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
    return send(reply, error.statusCode, error.errors);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as { validationContext?: string }).validationContext;
    const errors = error.validation.flatMap((issue) => {
      // Unknown keys come as one issue naming them all; the client needs one object per key.
      const keys =
        issue.keyword === 'unrecognized_keys' ? (issue.params as { keys?: unknown }).keys : undefined;
      if (Array.isArray(keys) && keys.length > 0) {
        return keys.map((key) =>
          errorObject(
            400,
            'VALIDATION_ERROR',
            `Unknown parameter ${String(key)}.`,
            sourceOf(context, `${issue.instancePath.replace(/\/$/, '')}/${String(key)}`),
          ),
        );
      }
      return [errorObject(400, 'VALIDATION_ERROR', issue.message, sourceOf(context, issue.instancePath))];
    });
    return send(reply, 400, errors);
  }
  if (Array.isArray(error.validation)) {
    return send(reply, 400, [errorObject(400, 'VALIDATION_ERROR', error.message)]);
  }
  const known = error.code ? BODY_ERRORS[error.code] : undefined;
  if (known) {
    return send(reply, known.status, [errorObject(known.status, known.code, known.detail)]);
  }
  if (isReadOnlyRefusal(error)) {
    // A read that would have written, asked while a page was drawn (db/read-only.ts): that page is
    // not drawn, the app's own call does the read, and its write, in the browser.
    request.log.info({ err: error }, 'a read in a read-only scope would have written: refused');
    return send(reply, 409, [errorObject(409, 'UNDEFINED', 'This read would write; a drawn page may not.')]);
  }
  if (isDataException(error)) {
    // Input the validation let through but the database refused: the client's fault, not ours.
    request.log.warn({ err: error }, 'database refused an input value');
    return send(reply, 400, [errorObject(400, 'VALIDATION_ERROR', 'A value of the request is not valid.')]);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code: ErrorCode =
      status === 404
        ? 'NOT_FOUND'
        : status === 401
          ? 'UNAUTHORIZED'
          : status === 429
            ? 'TOO_MANY_REQUESTS'
            : 'BAD_REQUEST';
    return send(reply, status, [errorObject(status, code, error.message)]);
  }
  // 5xx: the log keeps the detail, the client only learns that something failed.
  request.log.error({ err: error }, 'unhandled error');
  return send(reply, 500, [errorObject(500, 'UNDEFINED')]);
}

/**
 * PostgreSQL's SQLSTATE class 22 "data exception" (22021 invalid byte sequence, 22P02 invalid
 * text representation, 22001 value too long, 22008 datetime out of range...) always comes from
 * a value, never from our SQL or the server's state.
 */
function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code) && 'severity' in (error as object);
}

export function notFoundError(method: string, url: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `No route ${method} ${url.split('?')[0] ?? ''}.`);
}
