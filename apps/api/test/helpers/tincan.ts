import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app';
import { importFolder } from '../../src/content/importer';
import { DEMO } from '../content/helpers';
import { testEnv } from './app';
import type { ErrorDoc } from './app';
import { createTestDb } from './test-db';
import type { TestDb } from './test-db';
import type { PageDoc } from './player';

/**
 * The demo content on a fresh database with two app instances (another server process: only the
 * database decides between them), for the learning-module tests. The course "Health and safety
 * at work" (English tenant) has a tincan page, the fifth; each test takes a fresh lesson of it
 * for the demo learner and walks to it through the API.
 */
export const TINCAN_HOST = 'en.localhost';

export interface TincanWorld {
  t: TestDb;
  app: FastifyInstance;
  peer: FastifyInstance;
  contextId: string;
  courseId: string;
  classId: string;
  learnerId: string;
  teacherId: string;
  learnerToken: string;
  login(email: string, password: string): Promise<string>;
  /** A fresh lesson of the whole course (every section) for `userId`. */
  newLesson(userId: string): Promise<string>;
  client(token: string, on?: FastifyInstance): ReturnType<typeof clientOf>;
  /** A fresh lesson walked to its tincan page (earlier pages closed empty), the pages passed and the launch served. */
  toTincan(): Promise<{
    lessonId: string;
    pageId: string;
    index: number;
    before: PageDoc['data'][];
    launch: string | null;
  }>;
  /** The learner's XP and done pages, and one lesson's score and graded pages: what a score may change. */
  learnerState(lessonId: string): Promise<{
    xp: number;
    done: number;
    lesson: { actual: number; max: number } | undefined;
    graded: number;
  }>;
  close(): Promise<void>;
}

export const doc = (res: LightMyRequestResponse) => (res.json() as PageDoc).data;
export const errorsOf = (res: LightMyRequestResponse) => (res.json() as ErrorDoc).errors;

function clientOf(on: FastifyInstance, token: string) {
  const headers = { host: TINCAN_HOST, authorization: `Bearer ${token}` };
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

/** `prefix` names this file's lessons and files folder, so two files never share them. */
export async function startTincanWorld(
  prefix: string,
  envOverrides: Record<string, string> = {},
): Promise<TincanWorld> {
  const t = await createTestDb();
  const filesDir = mkdtempSync(path.join(tmpdir(), `parcours-${prefix}-`));
  const report = await importFolder(t.db, DEMO, { filesDir });
  expect(report.errors).toEqual([]);
  const make = async () => {
    const a = await buildApp({
      env: testEnv(envOverrides),
      db: t.db,
      dbKind: t.kind,
      filesDir,
      logger: false,
    });
    await a.ready();
    return a;
  };
  const app = await make();
  const peer = await make();
  const course = await t.db
    .selectFrom('courses as c')
    .innerJoin('contexts as x', 'x.id', 'c.contextId')
    .select(['c.id', 'c.contextId'])
    .where('x.alias', '=', 'en')
    .where('c.title', '=', 'Health and safety at work')
    .executeTakeFirstOrThrow();
  const userOf = async (email: string) =>
    (
      await t.db
        .selectFrom('users')
        .select('id')
        .where('contextId', '=', course.contextId)
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;
  const learnerId = await userOf('learner@example.com');
  const teacherId = await userOf('teacher@example.com');
  const classId = (
    await t.db
      .selectFrom('classUsers as cu')
      .innerJoin('classes as k', 'k.id', 'cu.classId')
      .select('k.id')
      .where('cu.userId', '=', learnerId)
      .executeTakeFirstOrThrow()
  ).id;

  const login = async (email: string, password: string): Promise<string> => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { host: TINCAN_HOST },
      payload: { email, password },
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as { access_token: string }).access_token;
  };
  const learnerToken = await login('learner@example.com', 'Learner#2026');

  let lessonCount = 0;
  const newLesson = async (userId: string): Promise<string> => {
    const id = `${prefix}-${++lessonCount}`;
    const now = new Date().toISOString();
    await t.db
      .insertInto('lessons')
      .values({
        id,
        contextId: course.contextId,
        userId,
        classId,
        classProgramId: null,
        classStepProgramId: null,
        courseId: course.id,
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
  };
  const client = (token: string, on: FastifyInstance = app) => clientOf(on, token);

  const toTincan: TincanWorld['toTincan'] = async () => {
    const lessonId = await newLesson(learnerId);
    const p = client(learnerToken);
    let res = await p.current(lessonId);
    const before: PageDoc['data'][] = [];
    for (let guard = 0; guard < 20; guard++) {
      expect(res.statusCode, res.body).toBe(200);
      const page = doc(res);
      if (page.attributes.block?.type === 'tincan') {
        const launch = (page.attributes as { tincanLaunch?: string | null }).tincanLaunch ?? null;
        return { lessonId, pageId: page.id, index: page.attributes.index, before, launch };
      }
      expect((await p.close(lessonId, page.id)).statusCode).toBe(200);
      before.push(page);
      res = await p.next(lessonId, page.id);
    }
    throw new Error('no tincan page in the demo course');
  };

  const learnerState: TincanWorld['learnerState'] = async (lessonId) => {
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
  };

  return {
    t,
    app,
    peer,
    contextId: course.contextId,
    courseId: course.id,
    classId,
    learnerId,
    teacherId,
    learnerToken,
    login,
    newLesson,
    client,
    toTincan,
    learnerState,
    close: async () => {
      await peer.close();
      await app.close();
      await t.close();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}
