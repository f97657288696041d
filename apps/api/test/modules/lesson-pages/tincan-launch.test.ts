import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../../src/app';
import { importFolder } from '../../../src/content/importer';
import { DEMO } from '../../content/helpers';
import { testEnv } from '../../helpers/app';
import type { ErrorDoc } from '../../helpers/app';
import { createTestDb } from '../../helpers/test-db';
import type { TestDb } from '../../helpers/test-db';
import type { PageDoc } from '../../helpers/player';

/**
 * Issue 10 finding 5 (decision 0009): a learning module's score is accepted only for a module
 * launch the server issued to that learner for that page (`tincanLaunch` of the served page,
 * stored in the database), once, within the page's time. The demo course "Health and safety at
 * work" (English tenant) has a tincan page, the fifth; each test takes a fresh lesson of it.
 */
const HOST = 'en.localhost';

let t: TestDb;
let app: FastifyInstance;
let peer: FastifyInstance;
let filesDir: string;
let contextId: string;
let courseId: string;
let classId: string;
let learnerId: string;
let learnerToken: string;
let lessonCount = 0;

async function login(email: string, password: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { host: HOST },
    payload: { email, password },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { access_token: string }).access_token;
}

beforeAll(async () => {
  t = await createTestDb();
  filesDir = mkdtempSync(path.join(tmpdir(), 'parcours-tincan-launch-'));
  const report = await importFolder(t.db, DEMO, { filesDir });
  expect(report.errors).toEqual([]);
  const make = async () => {
    const a = await buildApp({ env: testEnv(), db: t.db, dbKind: t.kind, filesDir, logger: false });
    await a.ready();
    return a;
  };
  app = await make();
  // Another server process on the same database: only the database decides between the two.
  peer = await make();
  const course = await t.db
    .selectFrom('courses as c')
    .innerJoin('contexts as x', 'x.id', 'c.contextId')
    .select(['c.id', 'c.contextId'])
    .where('x.alias', '=', 'en')
    .where('c.title', '=', 'Health and safety at work')
    .executeTakeFirstOrThrow();
  courseId = course.id;
  contextId = course.contextId;
  const userOf = async (email: string) =>
    (
      await t.db
        .selectFrom('users')
        .select('id')
        .where('contextId', '=', contextId)
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;
  learnerId = await userOf('learner@example.com');

  classId = (
    await t.db
      .selectFrom('classUsers as cu')
      .innerJoin('classes as k', 'k.id', 'cu.classId')
      .select('k.id')
      .where('cu.userId', '=', learnerId)
      .executeTakeFirstOrThrow()
  ).id;
  learnerToken = await login('learner@example.com', 'Learner#2026');
});
afterAll(async () => {
  await peer?.close();
  await app?.close();
  await t?.close();
  if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

/** A fresh lesson of the whole course (every section) for `userId`. */
async function newLesson(userId: string): Promise<string> {
  const id = `tincan-launch-${++lessonCount}`;
  const now = new Date().toISOString();
  await t.db
    .insertInto('lessons')
    .values({
      id,
      contextId,
      userId,
      classId,
      classProgramId: null,
      classStepProgramId: null,
      courseId,
      programCourseId: null,
      currentNodeId: null,
      enabledSectionIds: '[]',
      timeLimit: null,
      state: 'AVAILABLE',
      progress: null,
      certificationRef: null,
      startAt: null,
      startedAt: null,
      endedAt: null,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return id;
}

function client(token: string, on: FastifyInstance = app) {
  const headers = { host: HOST, authorization: `Bearer ${token}` };
  const send = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> => on.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return {
    current: (lessonId: string, query = '') => send('GET', `/api/lessons/${lessonId}/pages/current${query}`),
    close: (lessonId: string, pageId: string) =>
      send('PATCH', `/api/lessons/${lessonId}/pages/current`, { pageId }),
    next: (lessonId: string, fromPageId: string) =>
      send('POST', `/api/lessons/${lessonId}/pages/next`, { fromPageId }),
    choose: (lessonId: string, pageId: string, nodeId: string) =>
      send('POST', `/api/lessons/${lessonId}/pages/current/choose`, { pageId, nodeId }),
    score: (lessonId: string, body: object) =>
      send('POST', `/api/lessons/${lessonId}/pages/custom-tincan-score`, body),
  };
}

const doc = (res: LightMyRequestResponse) => (res.json() as PageDoc).data;
const errorsOf = (res: LightMyRequestResponse) => (res.json() as ErrorDoc).errors;

/** A fresh lesson walked to its tincan page (earlier pages closed empty); the pages passed on the way. */
async function toTincan(): Promise<{
  lessonId: string;
  pageId: string;
  index: number;
  before: PageDoc['data'][];
  launch: unknown;
}> {
  const lessonId = await newLesson(learnerId);
  const p = client(learnerToken);
  let res = await p.current(lessonId);
  const before: PageDoc['data'][] = [];
  for (let guard = 0; guard < 20; guard++) {
    expect(res.statusCode, res.body).toBe(200);
    const page = doc(res);
    if (page.attributes.block?.type === 'tincan')
      return {
        lessonId,
        pageId: page.id,
        index: page.attributes.index,
        before,
        launch: (page.attributes as { tincanLaunch?: unknown }).tincanLaunch,
      };
    expect((await p.close(lessonId, page.id)).statusCode).toBe(200);
    before.push(page);
    res = await p.next(lessonId, page.id);
  }
  throw new Error('no tincan page in the demo course');
}

async function learnerState(lessonId: string) {
  const u = await t.db
    .selectFrom('users')
    .select(['scoring', 'donePageCount'])
    .where('id', '=', learnerId)
    .executeTakeFirstOrThrow();
  const l = await t.db
    .selectFrom('lessons')
    .select('scoring')
    .where('id', '=', lessonId)
    .executeTakeFirstOrThrow();
  const graded = await t.db
    .selectFrom('lessonPages')
    .select('id')
    .where('lessonId', '=', lessonId)
    .where('answeredAt', 'is not', null)
    .execute();
  return {
    xp: Number((JSON.parse(u.scoring || '{}') as { xp?: number }).xp ?? 0),
    done: u.donePageCount,
    lesson: (JSON.parse(l.scoring || '{}') as { global?: { actual: number; max: number } }).global,
    graded: graded.length,
  };
}

describe('finding 5: a module score needs a launch the server issued', () => {
  it('the served module page carries a launch; slides and exercises do not', async () => {
    const { launch, before } = await toTincan();
    expect(typeof launch).toBe('string');
    expect((launch as string).length).toBeGreaterThanOrEqual(32);
    for (const page of before)
      expect((page.attributes as { tincanLaunch?: unknown }).tincanLaunch ?? null).toBeNull();
  });

  it('a score without a launch (the module never loaded): refused, nothing graded', async () => {
    const { lessonId, pageId } = await toTincan();
    const before = await learnerState(lessonId);
    const res = await client(learnerToken).score(lessonId, { pageId, score: { scaled: 1 } });
    expect(res.statusCode).toBe(400);
    expect(errorsOf(res).map((e) => e.source?.pointer)).toContain('/launch');
    expect(await learnerState(lessonId)).toEqual(before);
  });

  it('a made-up launch, or the launch of another page: 403, nothing graded', async () => {
    const a = await toTincan();
    const b = await toTincan();
    const before = await learnerState(a.lessonId);
    for (const launch of ['0'.repeat(43), b.launch]) {
      const res = await client(learnerToken).score(a.lessonId, {
        pageId: a.pageId,
        launch,
        score: { scaled: 1 },
      });
      expect(res.statusCode, res.body).toBe(403);
      expect(errorsOf(res)[0]?.code).toBe('Forbidden');
    }
    expect(await learnerState(a.lessonId)).toEqual(before);
  });

  it('the launch the server gave: recorded once; the same launch again is refused', async () => {
    const { lessonId, pageId, launch } = await toTincan();
    // Served again (a reload): the same launch.
    const again = doc(await client(learnerToken).current(lessonId));
    expect((again.attributes as { tincanLaunch?: unknown }).tincanLaunch).toBe(launch);
    const res = await client(learnerToken).score(lessonId, { pageId, launch, score: { scaled: 0.5 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(doc(res).attributes.results?.score).toEqual({ actual: 5, max: 10 });
    // Answered: no launch is handed out for it any more.
    expect((doc(res).attributes as { tincanLaunch?: unknown }).tincanLaunch ?? null).toBeNull();
    const after = await learnerState(lessonId);
    const replay = await client(learnerToken).score(lessonId, { pageId, launch, score: { scaled: 1 } });
    expect(replay.statusCode).toBe(409);
    expect(await learnerState(lessonId)).toEqual(after);
  });

  it("another learner's launch on their own page is no use to me (404: not my lesson)", async () => {
    const { lessonId, pageId, launch } = await toTincan();
    const teacher = client(await login('teacher@example.com', 'Teacher#2026'));
    const res = await teacher.score(lessonId, { pageId, launch, score: { scaled: 1 } });
    expect(res.statusCode).toBe(404);
  });

  it('a launch is kept in the database: two server processes agree on it', async () => {
    const { lessonId, pageId, launch } = await toTincan();
    const res = await client(learnerToken, peer).score(lessonId, { pageId, launch, score: { scaled: 1 } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('past the page time limit, even with its launch: 409 LESSON_PAGE_SKIPPED, 0 points', async () => {
    const { lessonId, pageId, launch } = await toTincan();
    await t.db
      .updateTable('lessonPages')
      .set({ timeLimit: 60, openedAt: new Date(Date.now() - 10 * 60_000).toISOString() })
      .where('id', '=', pageId)
      .execute();
    const res = await client(learnerToken).score(lessonId, { pageId, launch, score: { scaled: 1 } });
    expect(res.statusCode).toBe(409);
    expect(errorsOf(res)[0]?.code).toBe('LESSON_PAGE_SKIPPED');
    const page = doc(await client(learnerToken).current(lessonId, `?pageId=${pageId}`));
    expect(page.attributes.results).toMatchObject({ score: { actual: 0 }, skipped: true });
  });
});
