import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

/**
 * The contract check (issue 40, decision 0064): an answer is held to the schema its route
 * declares, the typed one OpenAPI shows (plugins/contract.ts), not the envelope the serializer
 * parses in production. A field the schema does not name is a violation too (Zod would drop it:
 * the parsed answer then differs from the one sent), so the reference never under-documents.
 */
export function contractViolations(schema: unknown, body: unknown): string[] {
  if (!(schema instanceof z.ZodType)) return [];
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    return parsed.error.issues.slice(0, 5).map((i) => `/${i.path.join('/')} ${i.message}`);
  }
  return isDeepStrictEqual(parsed.data, body)
    ? []
    : [`undocumented fields: ${firstDifference(parsed.data, body)}`];
}

function firstDifference(documented: unknown, sent: unknown, path = ''): string {
  if (typeof sent !== 'object' || sent === null || typeof documented !== 'object' || documented === null) {
    return path || '/';
  }
  for (const key of Object.keys(sent)) {
    const a = (documented as Record<string, unknown>)[key];
    const b = (sent as Record<string, unknown>)[key];
    if (!(key in documented)) return `${path}/${key}`;
    if (!isDeepStrictEqual(a, b)) return firstDifference(a, b, `${path}/${key}`);
  }
  return path || '/';
}
