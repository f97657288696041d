import type { z } from 'zod';
import { ApiError } from '../../plugins/errors';

/**
 * Runs a shared domain schema (packages/domain/schemas: one schema for the form and the route)
 * on a body. Failures are 400 VALIDATION_ERROR with the schema's message key as `detail` and
 * the field as `source.pointer`, one error object per problem.
 */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown, prefix = ''): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw ApiError.validation(
    result.error.issues.map((issue) => ({
      detail: issue.message,
      source: { pointer: `${prefix}/${issue.path.map(String).join('/')}` },
    })),
  );
}
