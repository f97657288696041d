import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, ids } from '../helpers/fixtures';
import { get, login, startTestApp } from '../helpers/app';
import type { ErrorDoc, TestContext } from '../helpers/app';

let t: TestContext;
let anna: string;
let admin: string;
beforeAll(async () => {
  t = await startTestApp();
  anna = await login(t.app, 'anna@example.test');
  admin = await login(t.app, 'admin@example.test');
});
afterAll(async () => {
  await t.close();
});

interface Res {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<
    string,
    { data: { type: string; id: string } | { type: string; id: string }[] | null }
  >;
}

describe('GET /api/class-users', () => {
  it('lists my memberships by default, with meta.total and meta.page', async () => {
    const res = await get(t.app, '/api/class-users', anna);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((r: Res) => r.id).sort()).toEqual(['cu-a-current', 'cu-a-expired']);
    expect(body.meta).toEqual({ total: 2, page: { number: 1, size: 50 } });
    expect(body.data[0]).toMatchObject({
      type: 'class-users',
      attributes: { userId: ids.learnerA, role: 'STUDENT' },
    });
    expect(body.included).toBeUndefined();
  });

  it('accepts my own id as filter[userId]', async () => {
    const res = await get(t.app, `/api/class-users?filter[userId]=${ids.learnerA}`, anna);
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.total).toBe(2);
  });

  it("refuses another learner's class-users with 403 Forbidden", async () => {
    for (const filter of [ids.learnerB, `${ids.learnerA},${ids.learnerB}`]) {
      const res = await get(t.app, `/api/class-users?filter[userId]=${filter}`, anna);
      expect(res.statusCode).toBe(403);
      expect((res.json() as ErrorDoc).errors[0]).toMatchObject({
        code: 'Forbidden',
        source: { parameter: 'filter[userId]' },
      });
    }
  });

  it('lets an administrator read anyone of the tenant, and nobody of another tenant', async () => {
    const res = await get(t.app, `/api/class-users?filter[userId]=${ids.learnerB},${ids.betaUser}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: Res) => r.id)).toEqual(['cu-b']);
  });

  it('sorts by -createdAt and filters expired classes', async () => {
    const sorted = (await get(t.app, '/api/class-users?sort=-createdAt', anna)).json();
    expect(sorted.data.map((r: Res) => r.id)).toEqual(['cu-a-current', 'cu-a-expired']);
    const asc = (await get(t.app, '/api/class-users?sort=createdAt', anna)).json();
    expect(asc.data.map((r: Res) => r.id)).toEqual(['cu-a-expired', 'cu-a-current']);
    const current = (await get(t.app, '/api/class-users?filter[expired]=false', anna)).json();
    expect(current.data.map((r: Res) => r.id)).toEqual(['cu-a-current']);
    const past = (await get(t.app, '/api/class-users?filter[expired]=true', anna)).json();
    expect(past.data.map((r: Res) => r.id)).toEqual(['cu-a-expired']);
  });

  it('pages with page[number] and page[size]', async () => {
    const p1 = (await get(t.app, '/api/class-users?sort=createdAt&page[size]=1&page[number]=1', anna)).json();
    const p2 = (await get(t.app, '/api/class-users?sort=createdAt&page[size]=1&page[number]=2', anna)).json();
    const p3 = (await get(t.app, '/api/class-users?sort=createdAt&page[size]=1&page[number]=3', anna)).json();
    expect(p1.data.map((r: Res) => r.id)).toEqual(['cu-a-expired']);
    expect(p2.data.map((r: Res) => r.id)).toEqual(['cu-a-current']);
    expect(p3.data).toEqual([]);
    expect(p2.meta).toEqual({ total: 2, page: { number: 2, size: 1 } });
  });

  it('includes the class tree down to courses, de-duplicated, without drafts', async () => {
    const res = await get(
      t.app,
      '/api/class-users?include=class.classPrograms.program.programCourses.course,class.teachers&filter[expired]=false',
      anna,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const included = body.included as Res[];
    const keys = included.map((r) => `${r.type}:${r.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(
      [
        `classes:${ids.classCurrent}`,
        `class-programs:${ids.cpCurrentPub}`,
        `programs:${ids.progPub}`,
        `program-courses:${ids.pcPub}`,
        `courses:${ids.coursePub}`,
        `users:${ids.teacher}`,
      ].sort(),
    );
    expect(body.data[0].relationships.class.data).toEqual({ type: 'classes', id: ids.classCurrent });
    const klass = included.find((r) => r.type === 'classes');
    expect(klass?.relationships?.classPrograms?.data).toEqual([
      { type: 'class-programs', id: ids.cpCurrentPub },
    ]);
    expect(klass?.relationships?.teachers?.data).toEqual([{ type: 'users', id: ids.teacher }]);
    const program = included.find((r) => r.type === 'programs');
    expect(program?.relationships?.programCourses?.data).toEqual([
      { type: 'program-courses', id: ids.pcPub },
    ]);
    const teacher = included.find((r) => r.type === 'users');
    expect(teacher?.attributes).toEqual({ displayName: 'Tess Teacher', avatarId: null });
    expect(res.body).not.toContain('Secret draft');
    expect(res.body).not.toContain('teacher@example.test');
  });

  it('refuses unknown include, filter, sort and page values with 400 VALIDATION_ERROR', async () => {
    const cases: [string, string][] = [
      ['include=class.secret', 'include'],
      ['include=lessons', 'include'],
      ['filter[password]=x', 'filter[password]'],
      ['sort=-password', 'sort'],
      ['filter[expired]=maybe', 'filter[expired]'],
      ['page[size]=1000', 'page[size]'],
      ['page[number]=0', 'page[number]'],
      ['page[number]=abc', 'page[number]'],
      ['unknown=1', 'unknown'],
    ];
    for (const [query, parameter] of cases) {
      const res = await get(t.app, `/api/class-users?${query}`, anna);
      expect(res.statusCode, query).toBe(400);
      const error = (res.json() as ErrorDoc).errors[0];
      expect(error, query).toMatchObject({ status: '400', code: 'VALIDATION_ERROR', source: { parameter } });
    }
  });

  it('requires a token', async () => {
    const res = await get(t.app, '/api/class-users');
    expect(res.statusCode).toBe(401);
  });

  it("does not show another tenant's memberships to a token of that tenant on this host", async () => {
    const beta = await login(t.app, 'anna@example.test', hosts.beta);
    const res = await get(t.app, '/api/class-users', beta, hosts.beta);
    expect(res.json().data.map((r: Res) => r.id)).toEqual(['cu-beta']);
  });
});
