import { afterAll, expect } from 'vitest';
import { JSONAPI_SINK } from '../../src/plugins/jsonapi-sink';
import type { SentJson } from '../../src/plugins/jsonapi-sink';
import { contractViolations } from './contract';
import { isJsonApiDocument, jsonApiViolations } from './validator';

/**
 * Setup file of every API test file (vitest.config.ts): each JSON:API document an app answers
 * during the file is validated against the official schema, each successful JSON answer against
 * the typed schema its route declares (the contract of /api/docs, contract.ts), and the file
 * fails at its end if one broke either, naming the request.
 */
interface Violation {
  request: string;
  problems: string[];
}

const state = { checked: 0, violations: [] as Violation[] };
(globalThis as Record<symbol, unknown>)[Symbol.for('parcours.jsonapi-checked')] = state;
const contract = { checked: 0, violations: [] as Violation[] };
(globalThis as Record<symbol, unknown>)[Symbol.for('parcours.contract-checked')] = contract;

(globalThis as Record<symbol, unknown>)[JSONAPI_SINK] = (sent: SentJson) => {
  let body: unknown;
  try {
    body = JSON.parse(sent.body);
  } catch {
    return;
  }
  if (sent.statusCode >= 200 && sent.statusCode < 300 && sent.schema !== undefined) {
    contract.checked++;
    const problems = contractViolations(sent.schema, body);
    if (problems.length > 0 && contract.violations.length < 50) {
      contract.violations.push({
        request: `${sent.method} ${sent.url.slice(0, 200)} → ${sent.statusCode}`,
        problems,
      });
    }
  }
  if (!isJsonApiDocument(body)) return;
  state.checked++;
  const problems = jsonApiViolations(body);
  if (problems.length > 0 && state.violations.length < 50) {
    state.violations.push({
      request: `${sent.method} ${sent.url.slice(0, 200)} → ${sent.statusCode}`,
      problems: problems.slice(0, 5),
    });
  }
};

afterAll(() => {
  // Tests of the check itself take their deliberate violations out before this runs.
  expect(state.violations, 'JSON:API responses that break the JSON:API 1.1 schema').toEqual([]);
  expect(contract.violations, 'answers that break the schema their route documents').toEqual([]);
});
