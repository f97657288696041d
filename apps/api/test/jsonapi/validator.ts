import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** The official JSON:API 1.1 response schema (README.md beside it says where it comes from). */
const schema = JSON.parse(readFileSync(path.join(import.meta.dirname, 'schema.json'), 'utf8')) as object;

// strict: false: the schema keeps `definitions` and `$comment`-style members that ajv's strict
// mode reports as unknown keywords; they do not change what is valid.
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/**
 * A response body is a JSON:API document when it is an object with `data` or `errors` at the top
 * (action calls such as sign-in or an answer return plain JSON, docs/api.md).
 */
export function isJsonApiDocument(body: unknown): body is Record<string, unknown> {
  return (
    typeof body === 'object' && body !== null && !Array.isArray(body) && ('data' in body || 'errors' in body)
  );
}

/** Readable schema violations of `doc`, empty when it is valid. */
export function jsonApiViolations(doc: unknown): string[] {
  if (validate(doc)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}
