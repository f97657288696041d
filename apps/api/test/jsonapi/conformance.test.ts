import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { get, login, startTestApp, testEnv } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { ids } from '../helpers/fixtures';
import { jsonApiViolations } from './validator';

/**
 * The JSON:API conformance check (setup.ts) can fail: the schema refuses the members issue 10
 * found, and a response that breaks it is caught on its way out of any app built in a test.
 */
let t: TestContext;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const resource = (extra: Record<string, unknown> = {}) => ({
  type: 'files',
  id: 'f-1',
  attributes: { name: 'a.png' },
  ...extra,
});

describe('the official JSON:API 1.1 schema', () => {
  it('accepts resource, collection, error and meta documents', () => {
    expect(jsonApiViolations({ data: resource() })).toEqual([]);
    expect(jsonApiViolations({ data: [resource()], included: [], meta: { total: 1 } })).toEqual([]);
    expect(jsonApiViolations({ errors: [{ status: '404', code: 'NOT_FOUND', title: 'Not found' }] })).toEqual(
      [],
    );
    expect(
      jsonApiViolations({ data: resource({ attributes: { node: { id: 'n', type: 'block' } } }) }),
    ).toEqual([]);
  });

  it('refuses the members issue 10 found: attributes or relationships named type or id, extra top-level members', () => {
    expect(jsonApiViolations({ data: resource({ attributes: { type: 'image/png' } }) })).not.toEqual([]);
    expect(jsonApiViolations({ data: resource({ attributes: { id: 'n-1' } }) })).not.toEqual([]);
    expect(jsonApiViolations({ data: resource({ relationships: { type: { data: null } } }) })).not.toEqual(
      [],
    );
    expect(jsonApiViolations({ data: [], files: [] })).not.toEqual([]);
    expect(jsonApiViolations({ data: [{ node: {}, block: null }] })).not.toEqual([]);
  });
});

describe('the check of every response', () => {
  const state = (globalThis as Record<symbol, unknown>)[Symbol.for('parcours.jsonapi-checked')] as {
    checked: number;
    violations: { request: string; problems: string[] }[];
  };

  it('sees the JSON:API documents the apps of a test answer', async () => {
    const before = state.checked;
    const token = await login(t.app, 'anna@example.test');
    expect(
      (await get(t.app, `/api/courses/${ids.coursePub}?include=courseType,category`, token)).statusCode,
    ).toBe(200);
    expect((await get(t.app, '/api/nope', token)).statusCode).toBe(404);
    expect(state.checked).toBe(before + 2);
  });

  it('records a response that breaks the schema, which fails the test file', async () => {
    const app = await buildApp({ env: testEnv(), db: t.tdb.db, dbKind: t.tdb.kind, logger: false });
    app.get('/api-test/bad', async () => ({
      data: { type: 'files', id: 'x', attributes: { type: 'image/png' } },
    }));
    const violations = state.violations.length;
    await app.inject({ method: 'GET', url: '/api-test/bad' });
    await app.close();
    expect(state.violations).toHaveLength(violations + 1);
    expect(state.violations.at(-1)?.request).toBe('GET /api-test/bad → 200');
    // Deliberate: taken out so that this file's own end-of-file check passes.
    state.violations.pop();
  });
});
