import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../helpers/fixtures';
import { get, login, startTestApp } from '../helpers/app';
import type { ErrorDoc, TestContext } from '../helpers/app';

let t: TestContext;
let anna: string;
let bob: string;
let admin: string;
beforeAll(async () => {
  t = await startTestApp();
  anna = await login(t.app, 'anna@example.test');
  bob = await login(t.app, 'bob@example.test');
  admin = await login(t.app, 'admin@example.test');
});
afterAll(async () => {
  await t.close();
});

const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

describe('classes', () => {
  it('lists the classes I belong to, sortable by name and startAt', async () => {
    expect(idsOf((await get(t.app, '/api/classes?sort=name', anna)).json())).toEqual([
      ids.classExpired,
      ids.classCurrent,
    ]);
    expect(idsOf((await get(t.app, '/api/classes?sort=-startAt', anna)).json())).toEqual([
      ids.classCurrent,
      ids.classExpired,
    ]);
    expect(idsOf((await get(t.app, `/api/classes?filter[id]=${ids.classB}`, anna)).json())).toEqual([]);
  });

  it('reads one class with its ordered class programs, and 404 for a class I am not in', async () => {
    const res = await get(
      t.app,
      `/api/classes/${ids.classCurrent}?include=classPrograms.program,teachers`,
      anna,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data.attributes).toMatchObject({
      name: 'B current',
      settings: { mobile: { allowed: true } },
    });
    // The draft program's class program is hidden from learners.
    expect(res.json().data.relationships.classPrograms.data).toEqual([
      { type: 'class-programs', id: ids.cpCurrentPub },
    ]);
    const other = await get(t.app, `/api/classes/${ids.classB}`, anna);
    expect(other.statusCode).toBe(404);
    expect((other.json() as ErrorDoc).errors[0]?.code).toBe('MODEL_NOT_FOUND');
  });

  it('shows drafts to administrators', async () => {
    const res = await get(t.app, `/api/classes/${ids.classCurrent}?include=classPrograms.program`, admin);
    expect(res.json().data.relationships.classPrograms.data.map((r: { id: string }) => r.id)).toEqual([
      ids.cpCurrentPub,
      ids.cpCurrentDraft,
    ]);
  });
});

describe('class-programs, programs, program-courses', () => {
  it('lists class programs of my classes by order, filtered by classId', async () => {
    const body = (
      await get(
        t.app,
        `/api/class-programs?filter[classId]=${ids.classCurrent},${ids.classB}&sort=order&include=program`,
        anna,
      )
    ).json();
    expect(idsOf(body)).toEqual([ids.cpCurrentPub]);
    expect(body.data[0].attributes).toMatchObject({
      order: 1,
      openingBoundaries: { from: '2025-01-01T00:00:00.000Z' },
    });
    expect(body.included.map((r: { id: string }) => r.id)).toEqual([ids.progPub]);
    expect((await get(t.app, `/api/class-programs/${ids.cpB}`, anna)).statusCode).toBe(404);
    expect((await get(t.app, `/api/class-programs/${ids.cpCurrentDraft}`, anna)).statusCode).toBe(404);
  });

  it('never shows a draft program or draft course to a learner', async () => {
    expect(idsOf((await get(t.app, '/api/programs', anna)).json())).toEqual([ids.progPub]);
    expect((await get(t.app, `/api/programs/${ids.progDraft}`, anna)).statusCode).toBe(404);
    const pcs = (
      await get(t.app, `/api/program-courses?filter[programId]=${ids.progPub}&include=course`, anna)
    ).json();
    expect(idsOf(pcs)).toEqual([ids.pcPub]);
    expect(JSON.stringify(pcs)).not.toContain('Secret draft');
    expect((await get(t.app, `/api/courses/${ids.courseDraft}`, anna)).statusCode).toBe(404);
  });

  it('shows them to administrators', async () => {
    expect(idsOf((await get(t.app, '/api/programs?sort=name', admin)).json())).toEqual([
      ids.progDraft,
      ids.progPub,
    ]);
    expect((await get(t.app, `/api/courses/${ids.courseDraft}`, admin)).statusCode).toBe(200);
  });

  it('reads a program with its ordered program courses', async () => {
    const body = (
      await get(t.app, `/api/programs/${ids.progPub}?include=programCourses.course`, anna)
    ).json();
    expect(body.data.attributes).toMatchObject({
      name: 'Maths path',
      state: 'PUBLISHED',
      tags: ['maths'],
      public: false,
    });
    expect(body.data.relationships.programCourses.data).toEqual([{ type: 'program-courses', id: ids.pcPub }]);
  });

  it('hides programs of classes I am not in', async () => {
    expect(idsOf((await get(t.app, '/api/programs', bob)).json())).toEqual([ids.progPub]);
    const noClass = await login(t.app, 'teacher@example.test');
    expect(idsOf((await get(t.app, '/api/programs', noClass)).json())).toEqual([ids.progPub]);
  });
});

describe('courses and competencies', () => {
  it('reads a course with include=courseType,category', async () => {
    const res = await get(t.app, `/api/courses/${ids.coursePub}?include=courseType,category`, anna);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.attributes).toMatchObject({
      title: 'Fractions 101',
      state: 'PUBLISHED',
      categoryId: ids.category,
      typeId: ids.type,
    });
    expect(body.included).toEqual(
      expect.arrayContaining([
        {
          type: 'course-types',
          id: ids.type,
          attributes: { title: 'Standard', description: null, settings: { hints: true } },
        },
        {
          type: 'course-categories',
          id: ids.category,
          attributes: { title: 'Maths', icon: 'calc', backgroundImageId: null },
        },
      ]),
    );
    expect((await get(t.app, `/api/courses/${ids.coursePub}?include=blocks`, anna)).statusCode).toBe(400);
    expect((await get(t.app, `/api/courses/${ids.courseBeta}`, anna)).statusCode).toBe(404);
  });

  it('accepts include=type, the spec’s name (SPEC §7), as include=courseType', async () => {
    const spec = await get(t.app, `/api/courses/${ids.coursePub}?include=type,category`, anna);
    expect(spec.statusCode).toBe(200);
    const api = await get(t.app, `/api/courses/${ids.coursePub}?include=courseType,category`, anna);
    expect(spec.json()).toEqual(api.json());
    expect((spec.json() as { included: { type: string }[] }).included.map((r) => r.type).sort()).toEqual([
      'course-categories',
      'course-types',
    ]);
    // Only where the resource has it: lessons have no `type` relationship.
    expect((await get(t.app, '/api/lessons?include=type', anna)).statusCode).toBe(400);
  });

  it('lists the competencies of the tenant by order, filtered by id', async () => {
    const body = (await get(t.app, '/api/course-competencies?sort=order', anna)).json();
    expect(idsOf(body)).toEqual([ids.compRoot, ids.compChild]);
    expect(body.data[1].attributes).toEqual({
      parentId: ids.compRoot,
      isGeneric: false,
      title: 'Fractions',
      icon: null,
      order: 2,
    });
    expect(
      idsOf(
        (await get(t.app, `/api/course-competencies?filter[id]=${ids.compChild},comp-beta`, anna)).json(),
      ),
    ).toEqual([ids.compChild]);
  });
});
