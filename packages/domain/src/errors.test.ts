import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  SPEC_ERROR_CODES,
  errorTranslationKeys,
  httpStatusOf,
  isErrorCode,
  readErrorCode,
} from './errors';
import type { ErrorCode } from './errors';

describe('ERROR_CODES', () => {
  it('holds the 15 SPEC §8 codes and the transport codes, without duplicates', () => {
    expect(SPEC_ERROR_CODES).toHaveLength(15);
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ['VALIDATION_ERROR', 'UNAUTHORIZED', 'NOT_FOUND', 'TOO_MANY_REQUESTS']) {
      expect(ERROR_CODES).toContain(code);
    }
  });
});

describe('httpStatusOf', () => {
  it.each<[ErrorCode, number]>([
    ['VALIDATION_ERROR', 400],
    ['UNAUTHORIZED', 401],
    ['INVALID_PASSWORD', 401],
    ['Forbidden', 403],
    ['NOT_FOUND', 404],
    ['MODEL_NOT_FOUND', 404],
    ['UNIQUE_USERNAME', 409],
    ['UNIQUE_USERNAME_OR_EMAIL', 409],
    ['PATCH_IN_PROGRESS', 409],
    ['NO_LESSON_PAGE_AVAILABLE', 409],
    ['BAD_REQUEST', 422],
    ['TOO_MANY_REQUESTS', 429],
    ['UNDEFINED', 500],
  ])('%s → %i', (code, status) => {
    expect(httpStatusOf(code)).toBe(status);
  });

  it.each(ERROR_CODES.map((code) => [code]))('%s has a 4xx or 5xx status', (code) => {
    const status = httpStatusOf(code);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(600);
  });
});

describe('isErrorCode', () => {
  it.each<[unknown, boolean]>([
    ['BAD_REQUEST', true],
    ['Forbidden', true],
    ['FORBIDDEN', false],
    ['bad_request', false],
    ['', false],
    [undefined, false],
    [42, false],
  ])('%j → %s', (value, expected) => {
    expect(isErrorCode(value)).toBe(expected);
  });
});

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super('api error');
  }
}

describe('readErrorCode', () => {
  it.each<[string, unknown, ErrorCode | null]>([
    ['axios-style response.data.code', { response: { data: { code: 'RETRY_RESTRICT' } } }, 'RETRY_RESTRICT'],
    [
      'response.data.errors[].code',
      { response: { data: { errors: [{ code: 'LESSON_SKIPPED' }] } } },
      'LESSON_SKIPPED',
    ],
    [
      'JSON:API document',
      { errors: [{ status: '404', code: 'MODEL_NOT_FOUND', title: 'Not found' }] },
      'MODEL_NOT_FOUND',
    ],
    ['errors[] with the code in title', { errors: [{ title: 'Forbidden' }] }, 'Forbidden'],
    [
      'first recognisable entry of errors[]',
      { errors: [{ code: 'WHATEVER' }, { code: 'INVALID_INPUTS' }] },
      'INVALID_INPUTS',
    ],
    [
      'code preferred over title in one entry',
      { errors: [{ code: 'BAD_REQUEST', title: 'UNDEFINED' }] },
      'BAD_REQUEST',
    ],
    [
      'unknown code falls back to a known title',
      { errors: [{ code: 'E42', title: 'PATCH_IN_PROGRESS' }] },
      'PATCH_IN_PROGRESS',
    ],
    [
      'response object with data.code',
      { data: { code: 'NO_LESSON_PAGE_AVAILABLE' } },
      'NO_LESSON_PAGE_AVAILABLE',
    ],
    ['a bare error object', { code: 'UNIQUE_USERNAME', title: 'x' }, 'UNIQUE_USERNAME'],
    [
      'an Error subclass carrying the body',
      new ApiError(409, { errors: [{ code: 'PATCH_IN_PROGRESS' }] }),
      'PATCH_IN_PROGRESS',
    ],
    [
      'an Error whose cause carries the code',
      new Error('wrapped', { cause: { data: { code: 'BAD_REQUEST' } } }),
      'BAD_REQUEST',
    ],
    ['a bare code string', 'INVALID_PASSWORD', 'INVALID_PASSWORD'],
    ['a JS TypeError', new TypeError('Failed to fetch'), 'TYPE_ERROR'],
    ['a TypeError as cause', new Error('x', { cause: new TypeError('y') }), 'TYPE_ERROR'],
    ['transport code', { errors: [{ code: 'TOO_MANY_REQUESTS' }] }, 'TOO_MANY_REQUESTS'],
    ['unknown code', { response: { data: { code: 'SOMETHING_ELSE' } } }, null],
    ['wrong case', { code: 'forbidden' }, null],
    ['Node system error code', Object.assign(new Error('down'), { code: 'ECONNREFUSED' }), null],
    ['a plain Error', new Error('boom'), null],
    ['an unknown string', 'oops', null],
    ['errors not an array', { errors: { code: 'BAD_REQUEST' } }, null],
    ['errors with junk entries', { errors: [null, 3, 'x', {}] }, null],
    ['empty errors', { errors: [] }, null],
    ['null', null, null],
    ['undefined', undefined, null],
    ['number', 500, null],
  ])('%s', (_label, payload, expected) => {
    expect(readErrorCode(payload)).toBe(expected);
  });

  it('stops on a cyclic cause chain', () => {
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(readErrorCode(a)).toBeNull();
  });
});

describe('errorTranslationKeys', () => {
  it.each<[ErrorCode]>([['UNDEFINED'], ['Forbidden']])('%s', (code) => {
    expect(errorTranslationKeys(code)).toEqual({
      title: `errors.${code}.title`,
      message: `errors.${code}.message`,
      button: `errors.${code}.button`,
    });
  });
});
