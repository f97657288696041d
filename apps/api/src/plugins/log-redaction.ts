import type { FastifyServerOptions } from 'fastify';

/**
 * Logs are read by more people, and kept longer, than the database: a token or a password in
 * them is a credential handed out. Every line goes through three filters, so a route that logs
 * carelessly (a whole request, a URL in a message) still writes no secret:
 * - the request serializer logs method, redacted URL, host and address, never headers or body;
 * - every logged object is walked and its secret-named keys replaced;
 * - every string (messages included) has URL secrets, bearer tokens and JWTs replaced.
 */

export const REDACTED = '[REDACTED]';

// Keys whose value is a secret wherever they appear: bodies, headers, query objects.
const SECRET_KEY =
  /pass(word)?|token|secret|authorization|cookie|^code$|^state$|^key$|signature|^sig$|^auth$/i;
// Query parameters carrying a secret (?access_token=, ?token=, OIDC ?code=&state=, ?sig=, a
// learning module's xAPI launch ?auth=Basic…, a cmi5 AU's ?fetch= URL).
const SECRET_PARAM =
  /([?&;](?:[^=&#\s]*(?:token|password|secret)[^=&#\s]*|code|state|sig|signature|key|auth|fetch)=)[^&#\s"']*/gi;
// Reset links and cmi5 fetch URLs (issue 31) carry their token in the path.
const RESET_PATH = /(\/(?:reset|packages\/fetch)\/)[^/?#\s"']+/gi;
const BEARER = /((?:bearer|basic)\s+)[^\s"',]+/gi;
// Any JWT, wherever it turns up.
const JWT = /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]{4,}/g;

export function redactText(text: string): string {
  return text
    .replace(SECRET_PARAM, `$1${REDACTED}`)
    .replace(RESET_PATH, `$1${REDACTED}`)
    .replace(BEARER, `$1${REDACTED}`)
    .replace(JWT, REDACTED);
}

const MAX_DEPTH = 12;

// Plain data: object literals, arrays, and null-prototype dictionaries (parsed query strings).
function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const ctor = (value as { constructor?: unknown }).constructor;
  return ctor === undefined || ctor === Object;
}

/**
 * A copy of `value` with secrets replaced. Only plain objects and arrays are walked: requests,
 * replies and errors reach the log through their serializers, whose output is redacted too.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || !isPlain(value)) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && item != null ? REDACTED : redactValue(item, depth + 1);
  }
  return out;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: redactText(request.url ?? ''),
    host: request.host ?? request.hostname,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

function serializeError(err: unknown) {
  if (!(err instanceof Error)) return redactValue(err);
  const e = err as Error & { code?: unknown; statusCode?: unknown };
  return redactValue({
    type: e.name,
    message: e.message,
    stack: e.stack,
    ...(e.code !== undefined ? { code: e.code } : {}),
    ...(e.statusCode !== undefined ? { statusCode: e.statusCode } : {}),
  });
}

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/** The app's logger options: the caller's (level, stream) with the redaction always on. */
export function redactingLogger(options: Record<string, unknown>): LoggerOptions {
  return {
    ...options,
    serializers: { req: serializeRequest, err: serializeError, error: serializeError },
    // Belt and braces for pino's own paths, should a serializer above ever be replaced.
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: REDACTED,
    },
    formatters: { log: (object: Record<string, unknown>) => redactValue(object) as Record<string, unknown> },
    hooks: {
      logMethod(args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? redactText(a) : a)),
        );
      },
    },
  } as LoggerOptions;
}
