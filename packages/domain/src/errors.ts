/**
 * The error catalogue of docs/product.md §8 plus the transport codes of the API contract (docs/api.md).
 * The API answers with these codes; the web app maps them to `errors.{code}.title/message/button`.
 */

/** Codes of docs/product.md §8, spelled exactly as the catalogue spells them (note `Forbidden`). */
export const SPEC_ERROR_CODES = [
  'UNIQUE_USERNAME',
  'UNIQUE_USERNAME_OR_EMAIL',
  'UNDEFINED',
  'TYPE_ERROR',
  'INVALID_INPUTS',
  'INVALID_INVITATION_CODE',
  'INVALID_PASSWORD',
  'LESSON_PAGE_SKIPPED',
  'LESSON_SKIPPED',
  'BAD_REQUEST',
  'RETRY_RESTRICT',
  'MODEL_NOT_FOUND',
  'PATCH_IN_PROGRESS',
  'NO_LESSON_PAGE_AVAILABLE',
  'Forbidden',
] as const;

/**
 * Codes the HTTP layer adds. INVALID_CREDENTIALS is listed by docs/api.md; login failures
 * still answer INVALID_PASSWORD (docs/product.md §8), so it is kept only so the contract can name it.
 */
export const TRANSPORT_ERROR_CODES = [
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'NOT_FOUND',
  'TOO_MANY_REQUESTS',
  'INVALID_CREDENTIALS',
] as const;

export const ERROR_CODES = [...SPEC_ERROR_CODES, ...TRANSPORT_ERROR_CODES] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Default HTTP status per code. Lesson-flow codes are 409: the request was well formed but the
 * lesson's current state (time over, already answered, nothing left) does not allow it.
 */
export const ERROR_HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  UNIQUE_USERNAME: 409,
  UNIQUE_USERNAME_OR_EMAIL: 409,
  UNDEFINED: 500,
  TYPE_ERROR: 422,
  INVALID_INPUTS: 409,
  INVALID_INVITATION_CODE: 422,
  INVALID_PASSWORD: 401,
  LESSON_PAGE_SKIPPED: 409,
  LESSON_SKIPPED: 409,
  BAD_REQUEST: 422,
  RETRY_RESTRICT: 409,
  MODEL_NOT_FOUND: 404,
  PATCH_IN_PROGRESS: 409,
  NO_LESSON_PAGE_AVAILABLE: 409,
  Forbidden: 403,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  TOO_MANY_REQUESTS: 429,
  INVALID_CREDENTIALS: 401,
};

const KNOWN = new Set<string>(ERROR_CODES);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && KNOWN.has(value);
}

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_HTTP_STATUS[code];
}

/** Translation keys of a code; `button` is optional in the catalogues (docs/product.md §8). */
export function errorTranslationKeys(code: ErrorCode): { title: string; message: string; button: string } {
  return {
    title: `errors.${code}.title`,
    message: `errors.${code}.message`,
    button: `errors.${code}.button`,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function fromErrorsArray(errors: unknown): ErrorCode | null {
  if (!Array.isArray(errors)) return null;
  for (const entry of errors) {
    if (!isRecord(entry)) continue;
    if (isErrorCode(entry.code)) return entry.code;
    if (isErrorCode(entry.title)) return entry.title;
  }
  return null;
}

function fromBody(body: unknown): ErrorCode | null {
  if (isErrorCode(body)) return body;
  if (!isRecord(body)) return null;
  if (isErrorCode(body.code)) return body.code;
  return fromErrorsArray(body.errors);
}

// Bounds the walk through `cause` chains, which may be cyclic.
const MAX_DEPTH = 4;

function read(payload: unknown, depth: number): ErrorCode | null {
  // fetch and JSON handling throw TypeError; docs/product.md §8 folds them into one catalogue entry.
  if (payload instanceof TypeError) return 'TYPE_ERROR';
  if (depth > MAX_DEPTH) return null;
  if (!isRecord(payload)) return isErrorCode(payload) ? payload : null;
  const response = payload.response;
  // Order: the SPEC's response.data first, then the shapes our own fetch client and the API produce.
  const candidates: unknown[] = [
    isRecord(response) ? response.data : undefined,
    payload.data,
    payload.body,
    payload,
  ];
  for (const candidate of candidates) {
    const code = fromBody(candidate);
    if (code) return code;
  }
  return payload.cause === undefined ? null : read(payload.cause, depth + 1);
}

/**
 * The catalogue code carried by a thrown error or an error response (docs/product.md §8 reading rules),
 * or null when none is recognisable; callers log those and show nothing specific.
 */
export function readErrorCode(payload: unknown): ErrorCode | null {
  return read(payload, 0);
}
