import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app';
import { importFolder } from '../../src/content/importer';
import { DEMO } from '../content/helpers';
import { testEnv } from '../helpers/app';
import type { ErrorDoc } from '../helpers/app';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';
import type { PageDoc } from '../helpers/player';

/**
 * POST /api/lessons/{id}/pages/custom-tincan-score (docs/api.md "Lesson player"): the demo
 * course "Health and safety at work" (English tenant) has a tincan page, the fifth. Each test
 * takes a fresh lesson of that course for the demo learner and walks to it through the API.
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
let teacherId: string;
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
  filesDir = mkdtempSync(path.join(tmpdir(), 'parcours-tincan-score-'));
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
  teacherId = await userOf('teacher@example.com');
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
  const id = `tincan-score-${++lessonCount}`;
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

/** A fresh lesson walked to its tincan page (earlier pages closed empty); the pages passed on the way, and the module's launch. */
async function toTincan(): Promise<{
  lessonId: string;
  pageId: string;
  index: number;
  before: PageDoc['data'][];
  launch: string;
}> {
  const lessonId = await newLesson(learnerId);
  const p = client(learnerToken);
  let res = await p.current(lessonId);
  const before: PageDoc['data'][] = [];
  for (let guard = 0; guard < 20; guard++) {
    expect(res.statusCode, res.body).toBe(200);
    const page = doc(res);
    if (page.attributes.block?.type === 'tincan') {
      // The launch the server issued with the module page: every score below sends it back.
      const launch = (page.attributes as { tincanLaunch?: string | null }).tincanLaunch;
      if (!launch) throw new Error('the module page came without a launch');
      return { lessonId, pageId: page.id, index: page.attributes.index, before, launch };
    }
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

describe('custom-tincan-score', () => {
  it('records a scaled score once: 0.8 → 8/10, XP credited once, then next moves on', async () => {
    const { lessonId, pageId, index, launch } = await toTincan();
    const p = client(learnerToken);
    const before = await learnerState(lessonId);
    const res = await p.score(lessonId, { pageId, launch, score: { scaled: 0.8 } });
    expect(res.statusCode, res.body).toBe(200);
    const page = doc(res);
    expect(page.id).toBe(pageId);
    expect(page.attributes.progress).toBe('COMPLETED');
    expect(page.attributes.answeredAt).not.toBeNull();
    expect(page.attributes.results).toMatchObject({
      score: { actual: 8, max: 10 },
      outcome: 'partial',
      feedbacks: [],
      retryAllowed: false,
      tincan: { scaled: 0.8 },
    });
    const after = await learnerState(lessonId);
    expect(after.xp - before.xp).toBeCloseTo(8, 5);
    expect(after.done - before.done).toBe(1);
    expect(after.graded - before.graded).toBe(1);
    expect(after.lesson!.actual - before.lesson!.actual).toBeCloseTo(8, 5);
    expect(after.lesson!.max - before.lesson!.max).toBe(10);

    // Twice: refused, nothing more counted.
    const again = await p.score(lessonId, { pageId, launch, score: { scaled: 1 } });
    expect(again.statusCode).toBe(409);
    expect(errorsOf(again)[0]?.code).toBe('INVALID_INPUTS');
    // An empty PATCH of the scored page is refused as for any answered page.
    expect((await p.close(lessonId, pageId)).statusCode).toBe(409);
    expect(await learnerState(lessonId)).toEqual(after);

    // Correction mode shows the recorded score.
    expect(doc(await p.current(lessonId, `?pageId=${pageId}`)).attributes.results?.score).toEqual({
      actual: 8,
      max: 10,
    });

    // The page is completed: next moves on without closing (or scoring) it again.
    const next = await p.next(lessonId, pageId);
    expect(next.statusCode, next.body).toBe(200);
    expect(doc(next).attributes.index).toBe(index + 1);
    expect(doc(next).id).not.toBe(pageId);
    expect(await learnerState(lessonId)).toEqual(after);
  });

  it('accepts the raw form: (raw − min) / (max − min), min 0 by default', async () => {
    const p = client(learnerToken);
    const a = await toTincan();
    const half = await p.score(a.lessonId, {
      pageId: a.pageId,
      launch: a.launch,
      score: { raw: 15, min: 10, max: 20 },
    });
    expect(half.statusCode, half.body).toBe(200);
    expect(doc(half).attributes.results).toMatchObject({
      score: { actual: 5, max: 10 },
      outcome: 'partial',
      tincan: { scaled: 0.5 },
    });

    const b = await toTincan();
    const full = await p.score(b.lessonId, { pageId: b.pageId, launch: b.launch, score: { raw: 7, max: 7 } });
    expect(full.statusCode, full.body).toBe(200);
    expect(doc(full).attributes.results).toMatchObject({
      score: { actual: 10, max: 10 },
      outcome: 'correct',
    });

    const c = await toTincan();
    const third = await p.score(c.lessonId, {
      pageId: c.pageId,
      launch: c.launch,
      score: { raw: 1, max: 3 },
    });
    expect(doc(third).attributes.results?.score).toEqual({ actual: 3.33, max: 10 });

    const d = await toTincan();
    const zero = await p.score(d.lessonId, { pageId: d.pageId, launch: d.launch, score: { scaled: 0 } });
    expect(doc(zero).attributes.results).toMatchObject({
      score: { actual: 0, max: 10 },
      outcome: 'incorrect',
    });
    expect(doc(zero).attributes.progress).toBe('COMPLETED');
  });

  it('refuses a malformed score with 400 VALIDATION_ERROR and a pointer; nothing is recorded', async () => {
    const { lessonId, pageId, launch } = await toTincan();
    const p = client(learnerToken);
    const before = await learnerState(lessonId);
    const cases: [unknown, string][] = [
      [{ scaled: 1.5 }, '/score/scaled'],
      [{ scaled: -0.1 }, '/score/scaled'],
      [{ scaled: '0.5' }, '/score/scaled'],
      [{}, '/score'],
      [{ raw: 5 }, '/score/max'],
      [{ min: 0, max: 10 }, '/score/raw'],
      [{ raw: 11, max: 10 }, '/score/raw'],
      [{ raw: -1, max: 10 }, '/score/raw'],
      [{ raw: 5, min: 5, max: 5 }, '/score/min'],
      [{ raw: 5, min: 8, max: 2 }, '/score/min'],
      [{ raw: 0, max: 0 }, '/score/max'],
    ];
    for (const [score, pointer] of cases) {
      const res = await p.score(lessonId, { pageId, launch, score });
      expect(res.statusCode, JSON.stringify(score)).toBe(400);
      const errors = errorsOf(res);
      expect(errors[0]?.code).toBe('VALIDATION_ERROR');
      expect(
        errors.map((e) => e.source?.pointer),
        JSON.stringify(score),
      ).toContain(pointer);
    }
    const missing = await p.score(lessonId, { pageId, launch });
    expect(missing.statusCode).toBe(400);
    expect(errorsOf(missing).map((e) => e.source?.pointer)).toContain('/score');
    const noPage = await p.score(lessonId, { launch, score: { scaled: 1 } });
    expect(noPage.statusCode).toBe(400);
    expect(errorsOf(noPage).map((e) => e.source?.pointer)).toContain('/pageId');
    expect(await learnerState(lessonId)).toEqual(before);
    // The page is still open to a good score.
    expect((await p.score(lessonId, { pageId, launch, score: { scaled: 0.25 } })).statusCode).toBe(200);
  });

  it('refuses pages that are not learning modules with 409 BAD_REQUEST', async () => {
    const { lessonId, pageId, before, launch } = await toTincan();
    const p = client(learnerToken);
    // An answered slide / exercise page before the module.
    for (const page of before) {
      const res = await p.score(lessonId, { pageId: page.id, launch, score: { scaled: 1 } });
      expect(res.statusCode).toBe(409);
      expect(errorsOf(res)[0]?.code).toBe('BAD_REQUEST');
    }
    // The multiblock chooser after it, and an unanswered exercise chosen there.
    const chooser = doc(await p.next(lessonId, pageId));
    expect(chooser.attributes.node.type).toBe('multiblock');
    const onChooser = await p.score(lessonId, { pageId: chooser.id, launch, score: { scaled: 1 } });
    expect(onChooser.statusCode).toBe(409);
    expect(errorsOf(onChooser)[0]?.code).toBe('BAD_REQUEST');
    const exercise = doc(await p.choose(lessonId, chooser.id, chooser.attributes.children[0]!.nodeId));
    expect(exercise.attributes.block?.type).toBe('exercice');
    const before2 = await learnerState(lessonId);
    const onExercise = await p.score(lessonId, { pageId: exercise.id, launch, score: { scaled: 1 } });
    expect(onExercise.statusCode).toBe(409);
    expect(errorsOf(onExercise)[0]?.code).toBe('BAD_REQUEST');
    expect(doc(await p.current(lessonId, `?pageId=${exercise.id}`)).attributes.answeredAt).toBeNull();
    expect(await learnerState(lessonId)).toEqual(before2);
  });

  it('two scores at once (one process, or two): exactly one recorded, XP counted once', async () => {
    for (const [first, second] of [
      [app, app],
      [app, peer],
    ] as const) {
      const { lessonId, pageId, launch } = await toTincan();
      const before = await learnerState(lessonId);
      const results = await Promise.all([
        client(learnerToken, first).score(lessonId, { pageId, launch, score: { scaled: 0.6 } }),
        client(learnerToken, second).score(lessonId, { pageId, launch, score: { scaled: 0.9 } }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const refused = results.find((r) => r.statusCode === 409)!;
      expect(['PATCH_IN_PROGRESS', 'INVALID_INPUTS']).toContain(errorsOf(refused)[0]?.code);
      const winner = doc(results.find((r) => r.statusCode === 200)!);
      const after = await learnerState(lessonId);
      expect(after.xp - before.xp).toBeCloseTo(winner.attributes.results!.score.actual, 5);
      expect(after.done - before.done).toBe(1);
      expect(after.graded - before.graded).toBe(1);
    }
  });

  it("another learner's lesson is not found (404)", async () => {
    const lessonId = await newLesson(teacherId);
    const teacher = client(await login('teacher@example.com', 'Teacher#2026'));
    const first = doc(await teacher.current(lessonId));
    const res = await client(learnerToken).score(lessonId, {
      pageId: first.id,
      launch: 'no-launch',
      score: { scaled: 1 },
    });
    expect(res.statusCode).toBe(404);
    expect(errorsOf(res)[0]?.code).toBe('MODEL_NOT_FOUND');
    const mine = await toTincan();
    const unknownPage = await client(learnerToken).score(mine.lessonId, {
      pageId: 'no-such-page',
      launch: mine.launch,
      score: { scaled: 1 },
    });
    expect(unknownPage.statusCode).toBe(404);
  });

  it('a score after the page time limit: 409 LESSON_PAGE_SKIPPED, page recorded with 0', async () => {
    const { lessonId, pageId, launch } = await toTincan();
    // The page was opened long ago and has a one-minute limit.
    await t.db
      .updateTable('lessonPages')
      .set({ timeLimit: 60, openedAt: new Date(Date.now() - 10 * 60_000).toISOString() })
      .where('id', '=', pageId)
      .execute();
    const before = await learnerState(lessonId);
    const res = await client(learnerToken).score(lessonId, { pageId, launch, score: { scaled: 1 } });
    expect(res.statusCode).toBe(409);
    expect(errorsOf(res)[0]?.code).toBe('LESSON_PAGE_SKIPPED');
    const page = doc(await client(learnerToken).current(lessonId, `?pageId=${pageId}`));
    expect(page.attributes.progress).toBe('COMPLETED');
    expect(page.attributes.results).toMatchObject({ score: { actual: 0 }, skipped: true });
    const after = await learnerState(lessonId);
    expect(after.xp).toBe(before.xp);
    expect(after.done - before.done).toBe(1);
  });
});
