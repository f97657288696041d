import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app';
import { importFolder } from '../../src/content/importer';
import { testEnv } from './app';
import { createTestDb } from './test-db';
import type { TestDb } from './test-db';
import { tenantSettingsYaml } from '../content/helpers';

/**
 * A small content folder written for the player tests and imported through the real importer:
 * tenant `play` (host play.test) with two course types — `practice` (hints, feedbacks, retry)
 * and `exam` (no hints, no feedbacks, no retry) — learners ann and ben enrolled in one class.
 * Every answer-tied text carries SECRET so leak checks can look for it.
 */
export const PLAY_HOST = 'play.test';
export const PLAY_PASSWORD = 'Learner#2026';

const TENANT = `
alias: play
name: Player School
hostnames: [${PLAY_HOST}]
categories: [{ id: maths, title: Maths }]
courseTypes:
  - { id: practice, title: Practice, settings: { hints: true, feedbacks: true, retry: true } }
  - { id: exam, title: Exam, settings: { hints: false, feedbacks: false, retry: false } }
${tenantSettingsYaml({ defaultLocale: 'en', certification: 'attestation' })}`;

const USERS = `
users:
  - { id: ann, email: ann@play.test, password: '${PLAY_PASSWORD}', firstname: Ann, lastname: Lee }
  - { id: ben, email: ben@play.test, password: '${PLAY_PASSWORD}', firstname: Ben, lastname: Roy }
`;

const choice = (expected: number, tag: string) => `
    type: exercice
    sections:
      - rows:
          - type: combined-choice
            choices: [{ value: '${tag} zero' }, { value: '${tag} one', feedback: 'SECRET-${tag}-choice' }, { value: '${tag} two' }]
            expected: ${expected}
            feedback: { correct: 'SECRET-${tag}-correct', incorrect: 'SECRET-${tag}-incorrect' }`;

const PRACTICE = `
id: practice-course
title: Practice
type: practice
category: maths
terms: [{ id: half, title: Half, words: [half], definition: '<p>One of two equal parts.</p>' }]
blocks:
  - id: intro
    title: Introduction
    type: slide
    sections: [{ rows: [{ type: wysiwyg, html: '<p>Welcome</p>' }] }]
  - id: q-mc
    title: Pick the even numbers
    type: exercice
    terms: [half]
    hints:
      - { message: 'HINT-ONE', cost: 2 }
      - { message: 'HINT-TWO', cost: 3 }
    sections:
      - rows:
          - type: multiple-choice
            choices: [{ value: 'two' }, { value: 'three', feedback: 'SECRET-mc-three' }, { value: 'four' }, { value: 'five' }]
            expected: [0, 2]
            feedback: { correct: 'SECRET-mc-correct', incorrect: 'SECRET-mc-incorrect' }
    feedbacks: [{ when: correct, preset: success, message: 'SECRET-general-correct' }]
  - id: q-free
    title: Type the answer
    type: exercice
    sections:
      - rows:
          - type: free-answer
            expected: { accept: ['forty-two'] }
            answers: [{ match: ['forty-one'], feedback: 'SECRET-free-41' }]
  - id: q-ta
    title: Timed A
${choice(1, 'ta')}
  - id: q-tb
    title: Timed B
${choice(2, 'tb')}
  - id: q-last
    title: Last one
${choice(0, 'last')}
tree:
  children:
    - id: s1
      title: First
      children:
        - { id: p-intro, block: intro }
        - { id: p-mc, block: q-mc, tools: { calculator: true } }
        - { id: p-free, block: q-free }
    - id: s2
      title: Second
      children:
        - id: m-chrono
          type: multiblock
          title: Against the clock
          children:
            - { id: p-ta, block: q-ta, settings: { timeLimit: 60 } }
            - { id: p-tb, block: q-tb, settings: { timeLimit: 60 } }
        - { id: p-last, block: q-last }
`;

const EXAM = `
id: exam-course
title: Exam
type: exam
category: maths
blocks:
  - id: q-exam
    title: Exam question
    hints: [{ message: 'HINT-EXAM', cost: 1 }]
${choice(1, 'exam')}
tree:
  children:
    - { id: e1, title: Exam, children: [{ id: p-exam, block: q-exam }] }
`;

const PROGRAMS = `
programs:
  - { id: practice-path, name: Practice path, courses: [practice-course, exam-course] }
  - { id: exam-path, name: Exam path, courses: [exam-course] }
`;

const CLASSES = `
classes:
  - id: c1
    name: Class one
    startAt: -1d
    expireAt: +30d
    programs: [{ program: practice-path }, { program: exam-path }]
    users: [{ user: ann, role: STUDENT }, { user: ben, role: STUDENT }]
`;

export function writePlayContent(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'parcours-play-'));
  const t = path.join(root, 'tenants', 'play');
  mkdirSync(path.join(t, 'courses'), { recursive: true });
  writeFileSync(path.join(t, 'tenant.yaml'), TENANT);
  writeFileSync(path.join(t, 'users.yaml'), USERS);
  writeFileSync(path.join(t, 'courses', 'practice.yaml'), PRACTICE);
  writeFileSync(path.join(t, 'courses', 'exam.yaml'), EXAM);
  writeFileSync(path.join(t, 'programs.yaml'), PROGRAMS);
  writeFileSync(path.join(t, 'classes.yaml'), CLASSES);
  return root;
}

/** A clock the tests move by hand. */
export class TestClock {
  /** Times handed out first, one per read, before `t` (a request stamped in time but handled late). */
  readonly queued: number[] = [];
  constructor(public t = Date.parse('2026-05-01T10:00:00.000Z')) {}
  now = (): Date => new Date(this.queued.shift() ?? this.t);
  advance(seconds: number): void {
    this.t += seconds * 1000;
  }
}

export interface PlayWorld {
  app: FastifyInstance;
  tdb: TestDb;
  clock: TestClock;
  filesDir: string;
  /** Lesson ids by learner and course alias. */
  lessons: Record<'ann' | 'ben', Record<'practice' | 'exam' | 'examLocked', string>>;
  users: Record<'ann' | 'ben', string>;
  /** A second app on the same database: another server process, without this one's in-memory state. */
  buildPeer(): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/** `env`: settings beside the tests' own (a web build's WEB_DIST, a session lifetime). */
export async function startPlayWorld(env: Record<string, string> = {}): Promise<PlayWorld> {
  const tdb = await createTestDb();
  const content = writePlayContent();
  const filesDir = mkdtempSync(path.join(tmpdir(), 'parcours-play-files-'));
  const clock = new TestClock();
  const report = await importFolder(tdb.db, content, { filesDir, now: clock.now() });
  rmSync(content, { recursive: true, force: true });
  if (report.errors.length) throw new Error(`import failed: ${JSON.stringify(report.errors)}`);
  const make = async () => {
    const app = await buildApp({
      env: testEnv(env),
      db: tdb.db,
      dbKind: tdb.kind,
      filesDir,
      logger: false,
      now: clock.now,
    });
    await app.ready();
    return app;
  };
  const app = await make();
  const rows = await tdb.db
    .selectFrom('lessons as l')
    .innerJoin('users as u', 'u.id', 'l.userId')
    .innerJoin('courses as c', 'c.id', 'l.courseId')
    .innerJoin('classPrograms as cp', 'cp.id', 'l.classProgramId')
    .innerJoin('programs as p', 'p.id', 'cp.programId')
    .select(['l.id', 'l.state', 'u.email', 'u.id as userId', 'c.title', 'p.name'])
    .execute();
  const pick = (email: string, title: string, program: string) => {
    const row = rows.find((r) => r.email === email && r.title === title && r.name === program);
    if (!row) throw new Error(`no lesson ${email} ${title} ${program}`);
    return row.id;
  };
  const lessonsOf = (email: string) => ({
    practice: pick(email, 'Practice', 'Practice path'),
    examLocked: pick(email, 'Exam', 'Practice path'),
    exam: pick(email, 'Exam', 'Exam path'),
  });
  const userId = (email: string) => rows.find((r) => r.email === email)!.userId;
  const peers: FastifyInstance[] = [];
  return {
    app,
    tdb,
    clock,
    filesDir,
    lessons: { ann: lessonsOf('ann@play.test'), ben: lessonsOf('ben@play.test') },
    users: { ann: userId('ann@play.test'), ben: userId('ben@play.test') },
    async buildPeer() {
      const peer = await make();
      peers.push(peer);
      return peer;
    },
    async close() {
      for (const p of peers) await p.close();
      await app.close();
      await tdb.close();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

export async function playLogin(app: FastifyInstance, who: 'ann' | 'ben'): Promise<string> {
  return playLoginAs(app, `${who}@play.test`);
}

/** Signs in any account of the play world (staff, extra learners) with the world's password. */
export async function playLoginAs(app: FastifyInstance, email: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { host: PLAY_HOST },
    payload: { email, password: PLAY_PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
  return (res.json() as { access_token: string }).access_token;
}

/** A small client for one learner. */
export function player(app: FastifyInstance, token: string) {
  const headers = { host: PLAY_HOST, authorization: `Bearer ${token}` };
  const send = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse> =>
    app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    send,
    current: (lessonId: string, query = '') => send('GET', `/api/lessons/${lessonId}/pages/current${query}`),
    answer: (lessonId: string, pageId: string, answers?: unknown[]) =>
      send(
        'PATCH',
        `/api/lessons/${lessonId}/pages/current`,
        answers === undefined ? { pageId } : { pageId, inputs: { answers } },
      ),
    next: (lessonId: string, fromPageId: string) =>
      send('POST', `/api/lessons/${lessonId}/pages/next`, { fromPageId }),
    previous: (lessonId: string, fromPageId: string) =>
      send('POST', `/api/lessons/${lessonId}/pages/previous`, { fromPageId }),
    hint: (lessonId: string, pageId: string) =>
      send('POST', `/api/lessons/${lessonId}/pages/current/hints`, { pageId }),
    start: (lessonId: string, pageId: string) =>
      send('POST', `/api/lessons/${lessonId}/pages/current/start`, { pageId }),
    ping: (lessonId: string, pageId: string) =>
      send('POST', `/api/lessons/${lessonId}/pages/current/ping`, { pageId }),
    retry: (lessonId: string, pageId: string) =>
      send('POST', `/api/lessons/${lessonId}/pages/current/retry`, { pageId }),
    choose: (lessonId: string, pageId: string, nodeId: string) =>
      send('POST', `/api/lessons/${lessonId}/pages/current/choose`, { pageId, nodeId }),
    lesson: (lessonId: string) => send('GET', `/api/lessons/${lessonId}`),
  };
}

export interface PageDoc {
  data: {
    id: string;
    attributes: {
      nodeId: string;
      index: number;
      count: number;
      progress: string | null;
      node: {
        id: string;
        type: string;
        title: string | null;
        settings: { timeLimit?: number | null };
        tools: Record<string, unknown>;
      };
      block: {
        id: string;
        title: string;
        type: string;
        settings: { hintCount: number };
        content: { sections: { rows: Record<string, unknown>[] }[] };
        terms: { id: string }[];
      } | null;
      children: { nodeId: string; title: string | null; done: boolean }[];
      hints: { messages: string[]; remaining: number; nextMalus: number | null };
      inputs: { answers: unknown[] } | null;
      results: {
        score: { actual: number; max: number };
        outcome: string | null;
        feedbacks: { source: string; message: string }[];
        correction: unknown[];
        retryAllowed: boolean;
        skipped?: boolean;
      } | null;
      timeLimit: number | null;
      remainingSeconds: number | null;
      startedAt: string | null;
      timeSpent: number;
      answeredAt: string | null;
      lessonScoring: { global: { actual: number; max: number } };
      attempt: number;
      current: boolean;
      sectionId: string | null;
      lessonRemainingSeconds: number | null;
    };
  };
}

const pageOf = (res: { json(): unknown }) => (res.json() as PageDoc).data;

/** Walks a learner's practice lesson to the multiblock and opens its first (timed, 60 s) child. */
export async function toTimedPage(p: ReturnType<typeof player>, L: string): Promise<PageDoc['data']> {
  let page = pageOf(await p.current(L));
  await p.answer(L, page.id);
  page = pageOf(await p.next(L, page.id));
  await p.answer(L, page.id, [[0, 2]]);
  page = pageOf(await p.next(L, page.id));
  await p.answer(L, page.id, ['forty-two']);
  const chooser = pageOf(await p.next(L, page.id));
  return pageOf(await p.choose(L, chooser.id, chooser.attributes.children[0]!.nodeId));
}

let copies = 0;
/**
 * Another practice lesson for the learner, in the same class but outside any class program:
 * each multiblock of a lesson takes one choice, so a test that needs a fresh timed child takes a
 * fresh lesson.
 */
export async function freshPractice(w: PlayWorld, who: 'ann' | 'ben'): Promise<string> {
  const row = await w.tdb.db
    .selectFrom('lessons')
    .selectAll()
    .where('id', '=', w.lessons[who].practice)
    .executeTakeFirstOrThrow();
  const id = `${row.id}-copy-${++copies}`;
  await w.tdb.db
    .insertInto('lessons')
    .values({
      ...row,
      id,
      classProgramId: null,
      state: 'AVAILABLE',
      progress: null,
      currentNodeId: null,
      startedAt: null,
      endedAt: null,
      scoring: '{}',
      timeLimit: null,
    })
    .execute();
  return id;
}
