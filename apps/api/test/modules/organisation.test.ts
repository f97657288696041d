import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, ids, T0 } from '../helpers/fixtures';
import { get, login, startTestApp } from '../helpers/app';
import type { ErrorDoc, TestContext } from '../helpers/app';

/**
 * Issue 13: organisation reads, the context mapper and the teacher's class data, with the
 * authorization matrix (anonymous, learner, teacher of the class, teacher of another class,
 * administrator, other tenant).
 */
let t: TestContext;
let anna: string;
let bob: string;
let teacher: string;
let otherTeacher: string;
let admin: string;
let beta: string;

const OTHER_TEACHER = 'u-teacher-other';

beforeAll(async () => {
  t = await startTestApp();
  const db = t.tdb.db;
  // A second teacher, of class B only, and a second company with a learner-only membership.
  const teacherRow = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', ids.teacher)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('users')
    .values({
      ...teacherRow,
      id: OTHER_TEACHER,
      email: 'other.teacher@example.test',
      firstname: 'Otto',
      lastname: 'Other',
    })
    .execute();
  await db
    .insertInto('classUsers')
    .values({
      id: 'cu-other-teacher',
      classId: ids.classB,
      userId: OTHER_TEACHER,
      role: 'TEACHER',
      createdAt: T0,
    })
    .execute();
  await db
    .insertInto('companies')
    .values({ id: 'co-other', contextId: ids.ctxA, name: 'Other Co', avatarId: null, createdAt: T0 })
    .execute();
  await db
    .insertInto('companyUsers')
    .values({ id: 'cou-3', companyId: ids.company, userId: ids.learnerB, role: 'STUDENT' })
    .execute();
  await db
    .insertInto('libraries')
    .values([
      { id: 'lib-anna', contextId: ids.ctxA, ownerId: ids.learnerA, ownerType: 'USER', createdAt: T0 },
      { id: 'lib-acme', contextId: ids.ctxA, ownerId: ids.company, ownerType: 'COMPANY', createdAt: T0 },
      { id: 'lib-ctx', contextId: ids.ctxA, ownerId: null, ownerType: 'CONTEXT', createdAt: T0 },
      { id: 'lib-bob', contextId: ids.ctxA, ownerId: ids.learnerB, ownerType: 'USER', createdAt: T0 },
    ])
    .execute();
  await db.updateTable('lessons').set({ timeSpent: 120 }).where('id', '=', ids.lessonA1).execute();

  anna = await login(t.app, 'anna@example.test');
  bob = await login(t.app, 'bob@example.test');
  teacher = await login(t.app, 'teacher@example.test');
  otherTeacher = await login(t.app, 'other.teacher@example.test');
  admin = await login(t.app, 'admin@example.test');
  beta = await login(t.app, 'anna@example.test', hosts.beta);
});
afterAll(async () => {
  await t.close();
});

const idsOf = (res: { json(): unknown }) =>
  ((res.json() as { data: { id: string }[] }).data ?? []).map((r) => r.id).sort();
const codeOf = (res: { json(): unknown }) => (res.json() as ErrorDoc).errors[0]?.code;

describe('classes/{id}/users/data', () => {
  const url = `/api/classes/${ids.classCurrent}/users/data`;

  it('gives a teacher of the class its learners with progress, score and time per course', async () => {
    const res = await get(t.app, url, teacher);
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { data: { id: string; attributes: Record<string, unknown> }[] }).data;
    expect(data.map((d) => d.attributes.userId)).toEqual([ids.learnerA]);
    const anna = data[0]!.attributes as {
      displayName: string;
      timeSpent: number;
      courses: Record<string, unknown>[];
    };
    expect(anna.displayName).toBe('Anna Martin');
    expect(anna.timeSpent).toBe(120);
    expect(anna.courses).toEqual([
      expect.objectContaining({
        courseId: ids.coursePub,
        lessonId: ids.lessonA1,
        score: { actual: 3, max: 4 },
        scoreRatio: 0.75,
        timeSpent: 120,
        // Section 1: b1 done, b2 ongoing → 0.75; section 2: multiblock done, b3 not → 0.5.
        percentProgression: 63,
      }),
    ]);
  });

  it.each([
    ['a learner of the class', () => anna, 403, 'Forbidden'],
    ['a learner of another class', () => bob, 403, 'Forbidden'],
    ['a teacher of another class', () => otherTeacher, 403, 'Forbidden'],
  ])('refuses %s', async (_who, token, status, code) => {
    const res = await get(t.app, url, token());
    expect(res.statusCode).toBe(status);
    expect(codeOf(res)).toBe(code);
  });

  it('lets an administrator of the tenant read it, and nobody from another tenant', async () => {
    expect((await get(t.app, url, admin)).statusCode).toBe(200);
    const other = await get(t.app, `/api/classes/${ids.classCurrent}/users/data`, beta, hosts.beta);
    expect(other.statusCode).toBe(404);
    expect((await get(t.app, url)).statusCode).toBe(401);
  });
});

describe('companies and company-users', () => {
  it('lists my companies only, every company for an administrator', async () => {
    expect(idsOf(await get(t.app, '/api/companies', anna))).toEqual([ids.company]);
    expect(idsOf(await get(t.app, '/api/companies', otherTeacher))).toEqual([]);
    expect(idsOf(await get(t.app, '/api/companies', admin))).toEqual(['co-other', ids.company].sort());
    expect(idsOf(await get(t.app, '/api/companies', beta, hosts.beta))).toEqual([]);
    expect((await get(t.app, '/api/companies/co-other', anna)).statusCode).toBe(404);
    expect((await get(t.app, '/api/companies')).statusCode).toBe(401);
  });

  it('shows a learner the staff with allowed roles and their own membership, never other learners', async () => {
    // Bob is a STUDENT of Acme too; Anna must not see him.
    expect(idsOf(await get(t.app, '/api/company-users', anna))).toEqual(['cou-1', 'cou-2']);
    expect(idsOf(await get(t.app, '/api/company-users?filter[role]=TEACHER', anna))).toEqual(['cou-1']);
    expect(idsOf(await get(t.app, '/api/company-users', admin))).toEqual(['cou-1', 'cou-2', 'cou-3']);
    const unknown = await get(t.app, '/api/company-users?filter[nope]=1', anna);
    expect(unknown.statusCode).toBe(400);
  });
});

describe('roles, role-users and libraries', () => {
  it('shows the roles I hold; the catalogue to administrators', async () => {
    expect(idsOf(await get(t.app, '/api/roles', anna))).toEqual([]);
    expect(idsOf(await get(t.app, '/api/roles', admin))).toEqual([ids.roleAdmin]);
    expect(idsOf(await get(t.app, '/api/role-users', anna))).toEqual([]);
    expect(idsOf(await get(t.app, '/api/role-users', admin))).toEqual(['ru-1']);
  });

  it('lists the libraries of me and my companies; the tenant library only to administrators', async () => {
    expect(idsOf(await get(t.app, '/api/libraries', anna))).toEqual(['lib-acme', 'lib-anna']);
    expect(idsOf(await get(t.app, '/api/libraries', bob))).toEqual(['lib-acme', 'lib-bob']);
    expect(idsOf(await get(t.app, '/api/libraries', admin))).toEqual([
      'lib-acme',
      'lib-anna',
      'lib-bob',
      'lib-ctx',
    ]);
    expect(idsOf(await get(t.app, '/api/libraries', beta, hosts.beta))).toEqual([]);
  });
});

describe('course categories and types by id', () => {
  it('reads the tenant’s reference data, 404 across tenants', async () => {
    const cat = await get(t.app, `/api/course-categories/${ids.category}`, anna);
    expect(cat.statusCode).toBe(200);
    expect(cat.json().data).toMatchObject({
      type: 'course-categories',
      id: ids.category,
      attributes: { title: 'Maths' },
    });
    expect((await get(t.app, `/api/course-types/${ids.type}`, anna)).json().data.attributes.title).toBe(
      'Standard',
    );
    expect((await get(t.app, '/api/course-categories/cat-beta', anna)).statusCode).toBe(404);
    expect((await get(t.app, `/api/course-types/${ids.type}`, beta, hosts.beta)).statusCode).toBe(404);
    expect((await get(t.app, `/api/course-types/${ids.type}`)).statusCode).toBe(401);
  });
});

describe('the context mapper', () => {
  it('maps every tenant to its hostnames and hosts, with public fields only', async () => {
    const res = await get(t.app, '/api/contexts');
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { data: { id: string; attributes: Record<string, unknown> }[] }).data;
    const alpha = data.find((d) => d.id === ids.ctxA);
    expect(alpha?.attributes).toEqual({
      alias: 'alpha',
      name: 'Alpha Academy',
      hosts: { app: 'https://alpha.test', api: 'https://api.alpha.test' },
      hostnames: [hosts.alphaApi, hosts.alpha].sort(),
      isGeneric: false,
    });
    expect(res.body).not.toContain('SUPER-SECRET-VALUE');
    expect(res.body).not.toContain('settings');
    expect(idsOf(await get(t.app, `/api/contexts?filter[hostname]=${hosts.beta}`))).toEqual([ids.ctxB]);
  });
});
