import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { buildApp } from '../../src/app';
import { hosts, ids } from '../helpers/fixtures';
import { login, startTestApp, testEnv } from '../helpers/app';
import type { ErrorDoc, TestContext } from '../helpers/app';

/**
 * Issue 10 finding 6: PostgreSQL refuses NUL and ill-formed UTF-16 in text with an error
 * (22021 / 22P02) that used to become a 500, while SQLite answered 4xx. Such text is refused at
 * the validation layer for every route, so both databases answer the same 400.
 */
let t: TestContext;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = await login(t.app, 'anna@example.test');
});
afterAll(async () => {
  await t.close();
});

const NUL = '\u0000';
const LONE = '\uD800';
const lesson = ids.lessonA1;

function cases(bad: string): [string, InjectOptions][] {
  // encodeURIComponent refuses lone surrogates: send the raw percent-encoded bytes instead.
  const inUrl = bad === LONE ? '%ED%A0%80' : encodeURIComponent(bad);
  return [
    ['GET lessons/{id}', { method: 'GET', url: `/api/lessons/x${inUrl}` }],
    ['GET lessons/{id}/pages/current', { method: 'GET', url: `/api/lessons/${inUrl}/pages/current` }],
    [
      'GET pages/current?pageId',
      { method: 'GET', url: `/api/lessons/${lesson}/pages/current?pageId=${inUrl}` },
    ],
    [
      'PATCH pages/current pageId',
      {
        method: 'PATCH',
        url: `/api/lessons/${lesson}/pages/current`,
        payload: { pageId: bad, inputs: { answers: {} } },
      },
    ],
    [
      'POST pages/next fromPageId',
      { method: 'POST', url: `/api/lessons/${lesson}/pages/next`, payload: { fromPageId: bad } },
    ],
    [
      'POST pages/previous fromPageId',
      { method: 'POST', url: `/api/lessons/${lesson}/pages/previous`, payload: { fromPageId: bad } },
    ],
    [
      'POST pages/current/hints pageId',
      { method: 'POST', url: `/api/lessons/${lesson}/pages/current/hints`, payload: { pageId: bad } },
    ],
    ['GET lessons filter[classId]', { method: 'GET', url: `/api/lessons?filter[classId]=${inUrl}` }],
    ['GET class-users filter[userId]', { method: 'GET', url: `/api/class-users?filter[userId]=${inUrl}` }],
    ['GET pages/{id}/resources', { method: 'GET', url: `/api/pages/${inUrl}/resources?lessonId=${lesson}` }],
    [
      'GET pages/{id}/resources?lessonId',
      { method: 'GET', url: `/api/pages/p-1/resources?lessonId=${inUrl}` },
    ],
    ['GET course-nodes/{id}', { method: 'GET', url: `/api/course-nodes/${inUrl}` }],
    ['GET course-blocks/{id}', { method: 'GET', url: `/api/course-blocks/${inUrl}` }],
    ['GET files/{id}/infos', { method: 'GET', url: `/api/files/${inUrl}/infos` }],
    ['GET files/{id}/download', { method: 'GET', url: `/api/files/${inUrl}/download` }],
    ['GET users/{id}', { method: 'GET', url: `/api/users/${inUrl}` }],
    ['POST class-programs/{id}/reset/me', { method: 'POST', url: `/api/class-programs/${inUrl}/reset/me` }],
    [
      'POST users/login e-mail',
      {
        method: 'POST',
        url: '/api/users/login',
        payload: { email: `anna${bad}@example.test`, password: 'x' },
      },
    ],
    [
      'POST users/recover e-mail',
      { method: 'POST', url: '/api/users/recover', payload: { email: `anna${bad}@example.test` } },
    ],
    ['GET users/reset/{token}', { method: 'GET', url: `/api/users/reset/${inUrl}` }],
    [
      'POST users/reset token',
      { method: 'POST', url: '/api/users/reset', payload: { token: bad, password: 'Secret-456!' } },
    ],
    ['POST reviews body', { method: 'POST', url: '/api/reviews', payload: { classProgramId: bad } }],
  ];
}

describe('NUL and ill-formed text in any input', () => {
  for (const [label, bad] of [
    ['NUL', NUL],
    ['a lone surrogate', LONE],
  ] as const) {
    it(`answers 400 VALIDATION_ERROR for ${label}, never a 500`, async () => {
      const failures: string[] = [];
      // A query string that is not UTF-8 stays its literal percent text (harmless); a path
      // that is not is refused by the router, and must still answer our JSON:API error.
      const all = cases(bad).filter(([, o]) => bad !== LONE || !String(o.url).includes('=%ED'));
      for (const [name, opts] of all) {
        const res = await t.app.inject({
          ...opts,
          headers: { host: hosts.alpha, authorization: `Bearer ${token}` },
        });
        const code = (res.json() as ErrorDoc).errors?.[0]?.code;
        if (res.statusCode !== 400 || code !== 'VALIDATION_ERROR')
          failures.push(`${name}: ${res.statusCode} ${code}`);
      }
      expect(failures).toEqual([]);
    });
  }

  it('refuses a NUL in an object key of a body, too', async () => {
    // The login body ignores unknown keys, so only the global check can refuse this one.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { host: hosts.alpha, 'content-type': 'application/json' },
      payload: '{"email":"anna@example.test","password":"x","a\\u0000":1}',
    });
    expect(res.statusCode).toBe(400);
  });

  it('still accepts ordinary non-ASCII text (accents, emoji)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { host: hosts.alpha },
      payload: { email: 'élève-😀@example.test', password: 'x' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('the error handler and database input errors', () => {
  it('turns a database data exception (SQLSTATE class 22) into 400, not 500', async () => {
    const app = await buildApp({ env: testEnv(), db: t.tdb.db, dbKind: t.tdb.kind, logger: false });
    app.get('/api-test/pg-22021', async () => {
      throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
        code: '22021',
        severity: 'ERROR',
      });
    });
    app.get('/api-test/pg-22P02', async () => {
      throw Object.assign(new Error('invalid input syntax for type integer'), {
        code: '22P02',
        severity: 'ERROR',
      });
    });
    for (const url of ['/api-test/pg-22021', '/api-test/pg-22P02']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect((res.json() as ErrorDoc).errors[0]?.code).toBe('VALIDATION_ERROR');
      expect(res.body).not.toContain('0x00');
    }
    await app.close();
  });
});
