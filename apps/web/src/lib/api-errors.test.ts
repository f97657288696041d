import { vi } from 'vitest';
import { ApiError } from './api-client';
import { normaliseError, type AppError } from './api-errors';

const apiError = (status: number, errors: unknown[]) => new ApiError(status, { errors }, 'users/u1');

describe('normaliseError (docs/product.md §3 error object, §8)', () => {
  const cases: [string, unknown, readonly string[], AppError][] = [
    [
      'a catalogue code from the API',
      apiError(409, [{ status: '409', code: 'UNIQUE_USERNAME', title: 'Taken' }]),
      ['username'],
      {
        name: 'ApiError',
        code: 'UNIQUE_USERNAME',
        title: 'errors.UNIQUE_USERNAME.title',
        message: 'errors.UNIQUE_USERNAME.message',
        target: null,
      },
    ],
    [
      'a field the form shows: its target',
      apiError(400, [
        {
          status: '400',
          code: 'VALIDATION_ERROR',
          detail: 'validation.email.invalid',
          source: { pointer: '/email' },
        },
      ]),
      ['email', 'username'],
      {
        name: 'ApiError',
        code: 'VALIDATION_ERROR',
        title: 'errors.VALIDATION_ERROR.title',
        message: 'errors.VALIDATION_ERROR.message',
        target: 'email',
      },
    ],
    [
      'a field the form does not show: its explanation is the message',
      apiError(400, [
        {
          status: '400',
          code: 'BAD_REQUEST',
          detail: 'validation.contact.classId',
          source: { pointer: '/classId' },
        },
      ]),
      ['message'],
      {
        name: 'ApiError',
        code: 'BAD_REQUEST',
        title: 'errors.BAD_REQUEST.title',
        message: 'validation.contact.classId',
        target: null,
      },
    ],
    [
      'a TypeError',
      new TypeError('x is undefined'),
      [],
      {
        name: 'TypeError',
        code: 'TYPE_ERROR',
        title: 'errors.TYPE_ERROR.title',
        message: 'errors.TYPE_ERROR.message',
        target: null,
      },
    ],
  ];
  it.each(cases)('%s', (_name, error, fields, expected) => {
    expect(normaliseError(error, fields)).toEqual(expected);
  });

  it('logs an error with no readable code and reads it as UNDEFINED', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(normaliseError(new Error('boom'))).toMatchObject({ name: 'Error', code: 'UNDEFINED' });
    expect(log).toHaveBeenCalledTimes(1);
    log.mockRestore();
  });
});
