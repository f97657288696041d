/**
 * Reads the field problems of a JSON:API error document (docs/api.md "Errors"): a 400
 * VALIDATION_ERROR carries one object per bad field, whose `detail` is a catalogue key
 * (`validation.password.complexity`) and `source.pointer` the field (`/password`).
 */
import { readErrorCode, type ErrorCode } from '@parcours/domain/errors';
import { ApiError } from './api-client';

/** docs/product.md §8: the code of a failure, UNDEFINED when none can be read (network, bug). */
export function errorCodeOf(error: unknown): ErrorCode {
  return readErrorCode(error) ?? 'UNDEFINED';
}

export interface FieldProblem {
  /** First segment of the pointer: `/legal/cguAcceptedVersion` → `legal`. */
  field: string;
  /** A catalogue key when the server sent one, else the code of the error. */
  key: string;
}

interface ErrorObject {
  code?: unknown;
  detail?: unknown;
  source?: { pointer?: unknown };
}

export function fieldProblems(error: unknown): FieldProblem[] {
  if (!(error instanceof ApiError)) return [];
  const body = error.body as { errors?: unknown } | undefined;
  if (!body || !Array.isArray(body.errors)) return [];
  const problems: FieldProblem[] = [];
  for (const item of body.errors as ErrorObject[]) {
    const pointer = typeof item.source?.pointer === 'string' ? item.source.pointer : '';
    const field = pointer.split('/')[1];
    if (!field) continue;
    const detail = typeof item.detail === 'string' ? item.detail : '';
    // Only catalogue keys are shown as field messages; a free-text detail is for developers.
    const key = detail.startsWith('validation.')
      ? detail
      : typeof item.code === 'string'
        ? `errors.${item.code}.message`
        : '';
    if (key) problems.push({ field, key });
  }
  return problems;
}

/**
 * docs/product.md §3 "Error object" and §8: one shape for every failure a form shows, whatever
 * threw it (the API client's ApiError, a TypeError, anything else):
 * - `code`: the catalogue code (a TypeError reads TYPE_ERROR; nothing readable, UNDEFINED);
 * - `name`: the thrown error's name (`ApiError`, `TypeError`, …);
 * - `title`, `message`: translation keys — the code's title, and for the message the server's
 *   explanation of a field the form does not show (e.g. the missing class), else the code's;
 * - `target`: the form field the failure is about (the first field problem among `formFields`),
 *   for the form to put its message under and focus; null when about no field of the form.
 * An error with no readable code is logged (docs/product.md §8 "unknown errors are logged").
 */
export interface AppError {
  name: string;
  title: string;
  message: string;
  target: string | null;
  code: ErrorCode;
}

export function normaliseError(error: unknown, formFields: readonly string[] = []): AppError {
  const code = readErrorCode(error);
  if (!code) console.error('Unidentified error', error);
  const problems = fieldProblems(error);
  const target = problems.find((problem) => formFields.includes(problem.field))?.field ?? null;
  const other = problems.find((problem) => !formFields.includes(problem.field));
  const known = code ?? 'UNDEFINED';
  return {
    name: error instanceof Error ? error.name : 'Error',
    title: `errors.${known}.title`,
    message: other?.key ?? `errors.${known}.message`,
    target,
    code: known,
  };
}

/**
 * The catalogue key of a refusal for a quota (issue 29) or a write budget (issue 36): the server
 * names it in the first error's `detail` (`quota.*`); null for any other failure.
 */
export function quotaKeyOf(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const first = (error.body as { errors?: ErrorObject[] } | undefined)?.errors?.[0];
  return typeof first?.detail === 'string' && first.detail.startsWith('quota.') ? first.detail : null;
}

/** No answer from the network (fetch's own failure), as opposed to a refusal or a bug. */
export function isNetworkError(error: unknown): boolean {
  // Only fetch's own failure: any other TypeError is a bug and must reach the error dialog.
  return (
    error instanceof TypeError && /failed to fetch|networkerror|load failed|network/i.test(error.message)
  );
}
