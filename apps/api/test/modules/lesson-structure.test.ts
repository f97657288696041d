import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app';
import { importFolder } from '../../src/content/importer';
import { testEnv } from '../helpers/app';
import { TestClock } from '../helpers/player';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';
import { tenantSettingsYaml } from '../content/helpers';

/**
 * Lesson structure (issue 27 item 3), on SQLite and PostgreSQL: a lesson's `sortedTree` and
 * `include=pages`; page documents with `timeAlive` and `results.sections`; course nodes serving
 * their `conditions`; a lesson-level time limit authored on the course, past which the lesson is
 * SKIPPED and an answer refused with LESSON_SKIPPED. A tenant of its own (host shape.test).
 */
const HOST = 'shape.test';
const PASSWORD = 'Learner#2026';

const TENANT = `
alias: shape
name: Shape School
hostnames: [${HOST}]
categories: [{ id: cat, title: Cat }]
${tenantSettingsYaml({ defaultLocale: 'en', certification: 'attestation' })}`;

const choice = (expected: number) => `
          - type: combined-choice
            choices: [{ value: a }, { value: b }]
            expected: ${expected}`;

const COURSE = `
id: shaped
title: Shaped
category: cat
timeLimit: 120
blocks:
  - id: b-two
    title: Two sections
    type: exercice
    sections:
      - title: First part
        rows:${choice(0)}${choice(1)}
      - title: Reading
        rows: [{ type: wysiwyg, html: '<p>Read</p>' }]
      - title: Second part
        rows:${choice(0)}
  - id: b-slide
    title: A slide
    type: slide
    sections: [{ rows: [{ type: wysiwyg, html: '<p>Hi</p>' }] }]
    table: { caption: Prices, head: [Item, Price], rows: [[Coat, '<b>80</b><script>x</script>']] }
    interactiveImage:
      image: media/shop.png
      alt: The shop
      viewBox: { width: 808, height: 500 }
      spots:
        - { shape: circle, cx: 100, cy: 120, r: 40, label: Till, html: '<p>Pay here</p><script>x</script>' }
        - { shape: polygon, points: [[0, 0], [10, 0], [10, 10]], label: Door, html: '<p>Way out</p>' }
tree:
  children:
    - id: s2
      title: Later
      children:
        - { id: n-b, block: b-slide }
    - id: s1
      title: First
      children:
        - { id: n-a, block: b-two, conditions: [{ node: n-b }] }
`;

let t: TestDb;
let app: FastifyInstance;
let filesDir: string;
let token: string;
let lessonId: string;
const clock = new TestClock();

beforeAll(async () => {
  t = await createTestDb();
  const root = mkdtempSync(path.join(tmpdir(), 'parcours-shape-'));
  const tenant = path.join(root, 'tenants', 'shape');
  mkdirSync(path.join(tenant, 'courses'), { recursive: true });
  writeFileSync(path.join(tenant, 'tenant.yaml'), TENANT);
  mkdirSync(path.join(root, 'media'));
  copyFileSync(
    path.join(import.meta.dirname, '../../../../content/demo/media/workshop.png'),
    path.join(root, 'media', 'shop.png'),
  );
  writeFileSync(
    path.join(tenant, 'users.yaml'),
    `users:\n  - { id: sam, email: sam@shape.test, password: '${PASSWORD}', firstname: Sam, lastname: Roe }\n`,
  );
  // Containers are written in file order, so s2 comes first: the tree follows `order`.
  writeFileSync(path.join(tenant, 'courses', 'shaped.yaml'), COURSE);
  writeFileSync(
    path.join(tenant, 'programs.yaml'),
    'programs:\n  - { id: p1, name: Path, courses: [shaped] }\n',
  );
  writeFileSync(
    path.join(tenant, 'classes.yaml'),
    'classes:\n  - id: c1\n    name: Class\n    startAt: -1d\n    expireAt: +30d\n    programs: [{ program: p1, steps: [shaped] }]\n    users: [{ user: sam, role: STUDENT }]\n',
  );
  filesDir = mkdtempSync(path.join(tmpdir(), 'parcours-shape-files-'));
  const report = await importFolder(t.db, root, { filesDir, now: clock.now() });
  rmSync(root, { recursive: true, force: true });
  expect(report.errors).toEqual([]);
  app = await buildApp({ env: testEnv(), db: t.db, dbKind: t.kind, filesDir, logger: false, now: clock.now });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { host: HOST },
    payload: { email: 'sam@shape.test', password: PASSWORD },
  });
  token = (login.json() as { access_token: string }).access_token;
  lessonId = (await t.db.selectFrom('lessons').select('id').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await app?.close();
  await t?.close();
  if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

const send = (
  method: 'GET' | 'PATCH' | 'POST',
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> =>
  app.inject({
    method,
    url,
    headers: { host: HOST, authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
const ok = <T>(res: LightMyRequestResponse): T => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};

interface LessonDoc {
  data: {
    attributes: {
      timeLimit: number | null;
      state: string;
      sortedTree: { nodeId: string; sectionId: string; index: number; progress: string | null }[];
    };
    relationships: { pages?: { data: { type: string; id: string }[] } };
  };
  included?: { type: string; id: string; attributes: Record<string, unknown> }[];
}
interface PageDoc {
  data: {
    id: string;
    attributes: {
      nodeId: string;
      timeAlive: number;
      block: { content: { table?: unknown; interactiveImage?: Record<string, unknown> } } | null;
      results: {
        answerRatios: (number | null)[];
        sections: { title: string | null; ratio: number | null }[];
      } | null;
    };
  };
}

describe('lesson structure', () => {
  let pageId = '';

  it('serves sortedTree, and include=pages once a page exists', async () => {
    const before = ok<LessonDoc>(await send('GET', `/api/lessons/${lessonId}?include=pages`));
    const ids = await t.db.selectFrom('courseNodes').select(['id', 'title']).execute();
    const idOf = (title: string) => ids.find((n) => n.title === title)!.id;
    // File order puts "Later" first; the tree follows the nodes' `order`, which is file order too.
    expect(before.data.attributes.sortedTree.map((p) => [p.index, p.sectionId, p.progress])).toEqual([
      [0, idOf('Later'), null],
      [1, idOf('First'), null],
    ]);
    expect(before.data.attributes.timeLimit).toBe(120);
    expect(before.included ?? []).toEqual([]);

    const page = ok<PageDoc>(await send('GET', `/api/lessons/${lessonId}/pages/current`));
    pageId = page.data.id;
    expect(page.data.attributes.timeAlive).toBe(0);
    // The block's own table (SPEC §3 content.table), its cells cleaned like any content HTML.
    expect(page.data.attributes.block?.content.table).toEqual({
      caption: 'Prices',
      head: ['Item', 'Price'],
      rows: [['Coat', '<b>80</b>']],
    });
    // Its interactive image (decision 0052): the file by its API id, the spots' HTML cleaned.
    const image = page.data.attributes.block?.content.interactiveImage;
    expect(image).toMatchObject({
      alt: 'The shop',
      viewBox: '0 0 808 500',
      appFile: { id: expect.any(String), fileType: 'image' },
      spots: [
        { shape: 'circle', cx: 100, cy: 120, r: 40, label: 'Till', html: '<p>Pay here</p>' },
        { shape: 'polygon', points: '0,0 10,0 10,10', label: 'Door', html: '<p>Way out</p>' },
      ],
    });
    const after = ok<LessonDoc>(await send('GET', `/api/lessons/${lessonId}?include=pages`));
    expect(after.data.relationships.pages?.data).toEqual([{ type: 'pages', id: pageId }]);
    expect(after.included).toEqual([
      expect.objectContaining({
        type: 'pages',
        id: pageId,
        attributes: expect.objectContaining({ state: 'ACTIVE', progress: 'ONGOING', timeAlive: 0 }),
      }),
    ]);
    expect(after.data.attributes.sortedTree[0]?.progress).toBe('ONGOING');
    expect((await send('GET', `/api/lessons/${lessonId}?include=pages.answers`)).statusCode).toBe(400);
  });

  it('serves the class steps authored in classes.yaml, and the lesson names its step', async () => {
    const doc = ok<{
      data: { id: string; attributes: { classProgramId: string; resourceId: string; order: number } }[];
    }>(await send('GET', '/api/class-steps?sort=order'));
    const cp = await t.db.selectFrom('classPrograms').select('id').executeTakeFirstOrThrow();
    const pc = await t.db.selectFrom('programCourses').select('id').executeTakeFirstOrThrow();
    expect(doc.data.map((s) => s.attributes)).toEqual([
      { classProgramId: cp.id, resourceId: pc.id, order: 0 },
    ]);
    const lesson = ok<{ data: { attributes: { classStepProgramId: string | null } } }>(
      await send('GET', `/api/lessons/${lessonId}`),
    );
    expect(lesson.data.attributes.classStepProgramId).toBe(doc.data[0]!.id);
    expect((await send('GET', '/api/class-steps?filter[nope]=1')).statusCode).toBe(400);
  });

  it('serves course node conditions, naming nodes by their API id', async () => {
    const doc = ok<{ data: { id: string; attributes: { title: string | null; conditions: unknown[] } }[] }>(
      await send('GET', `/api/course-nodes?filter[courseId]=${await courseId()}`),
    );
    const slide = doc.data.find((n) => n.attributes.title === 'A slide');
    const node = doc.data.find((n) => n.attributes.title === 'Two sections');
    expect(slide?.attributes.conditions).toEqual([]);
    // Met once the slide is read, so the journey below goes on to the exercise (decision 0051).
    expect(node?.attributes.conditions).toEqual([{ node: slide?.id }]);
  });

  it('gives the page results per section and its time alive', async () => {
    // The slide ("Later" comes first by order), then the two-section exercise.
    ok(await send('PATCH', `/api/lessons/${lessonId}/pages/current`, { pageId }));
    pageId = ok<PageDoc>(await send('POST', `/api/lessons/${lessonId}/pages/next`, { fromPageId: pageId }))
      .data.id;
    clock.advance(10);
    expect((await send('POST', `/api/lessons/${lessonId}/pages/current/ping`, { pageId })).statusCode).toBe(
      204,
    );
    const answered = ok<PageDoc>(
      await send('PATCH', `/api/lessons/${lessonId}/pages/current`, {
        pageId,
        inputs: { answers: [0, 0, null, 0] },
      }),
    );
    expect(answered.data.attributes.results?.answerRatios).toEqual([1, 0, null, 1]);
    expect(answered.data.attributes.results?.sections).toEqual([
      { title: 'First part', ratio: 0.5 },
      { title: 'Reading', ratio: null },
      { title: 'Second part', ratio: 1 },
    ]);
    expect(answered.data.attributes.timeAlive).toBe(10);
  });

  it('skips the lesson past its own time limit: LESSON_SKIPPED, and the lesson reads SKIPPED', async () => {
    clock.advance(200);
    const late = await send('GET', `/api/lessons/${lessonId}/pages/current`);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ errors: [{ code: 'LESSON_SKIPPED' }] });
    const lesson = ok<LessonDoc>(await send('GET', `/api/lessons/${lessonId}`));
    expect(lesson.data.attributes.state).toBe('SKIPPED');
  });
});

async function courseId(): Promise<string> {
  return (await t.db.selectFrom('courses').select('id').executeTakeFirstOrThrow()).id;
}
