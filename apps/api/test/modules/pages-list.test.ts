import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, ids } from '../helpers/fixtures';
import { get, login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';

/** docs/product.md §7 `GET pages` (issue 13): summaries only, scoped to the viewer. */
let t: TestContext;
let anna: string;
let bob: string;
let teacher: string;
let admin: string;
let beta: string;

beforeAll(async () => {
  t = await startTestApp();
  // A recorded answer and result on one page: they must never show in the list.
  await t.tdb.db
    .updateTable('lessonPages')
    .set({
      inputs: JSON.stringify({ answers: ['SECRET-ANSWER'] }),
      results: JSON.stringify({ correction: ['SECRET-KEY'] }),
      scoreActual: 7,
      scoreMax: 10,
    })
    .where('id', '=', 'p-1')
    .execute();
  anna = await login(t.app, 'anna@example.test');
  bob = await login(t.app, 'bob@example.test');
  teacher = await login(t.app, 'teacher@example.test');
  admin = await login(t.app, 'admin@example.test');
  beta = await login(t.app, 'anna@example.test', hosts.beta);
});
afterAll(async () => {
  await t.close();
});

const idsOf = (res: { json(): unknown }) =>
  ((res.json() as { data: { id: string }[] }).data ?? []).map((r) => r.id).sort();

describe('GET /api/pages', () => {
  it('lists my live pages without answers, results or keys', async () => {
    const res = await get(t.app, '/api/pages', anna);
    expect(res.statusCode).toBe(200);
    expect(idsOf(res)).toEqual(['p-1', 'p-3', 'p-4']);
    expect(res.body).not.toContain('SECRET');
    const p1 = (res.json() as { data: { id: string; attributes: Record<string, unknown> }[] }).data.find(
      (p) => p.id === 'p-1',
    );
    expect(p1?.attributes).toMatchObject({
      lessonId: ids.lessonA1,
      state: 'ACTIVE',
      progress: 'COMPLETED',
      score: { actual: 7, max: 10 },
    });
    expect(p1?.attributes).not.toHaveProperty('inputs');
    expect(p1?.attributes).not.toHaveProperty('results');
  });

  it('shows archived attempts when asked, and filters by lesson', async () => {
    expect(idsOf(await get(t.app, '/api/pages?filter[state]=ARCHIVED', anna))).toEqual(['p-2']);
    expect(idsOf(await get(t.app, `/api/pages?filter[lessonId]=${ids.lessonB1}`, anna))).toEqual([]);
    expect((await get(t.app, '/api/pages?filter[state]=DELETED', anna)).statusCode).toBe(400);
  });

  it('lets a teacher see the pages of the classes they teach, and nobody else’s', async () => {
    expect(idsOf(await get(t.app, '/api/pages', teacher))).toEqual(['p-1', 'p-3', 'p-4']);
    expect(idsOf(await get(t.app, '/api/pages', bob))).toEqual(['p-5']);
    expect(idsOf(await get(t.app, '/api/pages', admin))).toEqual(['p-1', 'p-3', 'p-4', 'p-5']);
    expect(idsOf(await get(t.app, '/api/pages', beta, hosts.beta))).toEqual([]);
    expect((await get(t.app, '/api/pages')).statusCode).toBe(401);
  });
});
