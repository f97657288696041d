import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app';
import { importFolder } from '../../src/content/importer';
import { testEnv } from './app';
import { createTestDb } from './test-db';
import type { TestDb } from './test-db';

/**
 * Content for the progression tests (docs/api.md "Progression"), imported through the real
 * importer: tenant `prog` (host prog.test), learners ann and ben, five one- or two-slide courses
 * (c1..c3 of a certifying course type, c4 and c5 not),
 * and programs that exercise each unlock rule:
 * - `seq`    c1 → c2 → c3 (sequential; c3 ends the program)
 * - `branch` c1 unlocks c2 and c3 (two to choose from)
 * - `quiz`   c1 asks a question: "Two" opens c2, "Three" opens c3
 * - `all`    c4 and c5 open at once
 * Classes: `k-open` (open now, every program, ann and ben); `k-narrow` (open class, but its `seq`
 * class program runs from +1d to +2d only; ann); `k-later` (the class starts at +3d; ann).
 * Relative dates resolve against the import day's midnight UTC: with the clock at
 * 2026-05-01T10:00Z, +1d is 2026-05-02T00:00Z.
 */
export const PROG_HOST = 'prog.test';
export const PROG_PASSWORD = 'Learner#2026';
export const T_START = Date.parse('2026-05-01T10:00:00.000Z');
export const MIDNIGHT = Date.parse('2026-05-01T00:00:00.000Z');
export const DAY = 86_400_000;

const TENANT = `
alias: prog
name: Progression School
hostnames: [${PROG_HOST}]
categories: [{ id: general, title: General }]
courseTypes:
  - { id: plain, title: Plain, settings: { hints: false, feedbacks: false, retry: false, certificate: true } }
  - { id: practice, title: Practice, settings: { hints: false, feedbacks: false, retry: false, certificate: false } }
settings:
  defaultLocale: en
  login: { internal: true, oidc: null }
  invitationCodes: { enabled: false, simplePassword: false }
  certification: { allowed: true, type: certification }
  allowContactTeacher: false
  profile: { fields: { firstname: true, lastname: true, email: true, username: false, birthday: false } }
  requiredDatas: false
  emailNotifications: false
  demoVideoUrl: null
  legal: { cgu: null, rgpd: null }
`;

const USERS = `
users:
  - { id: ann, email: ann@prog.test, password: '${PROG_PASSWORD}', firstname: Ann, lastname: Lee }
  - { id: ben, email: ben@prog.test, password: '${PROG_PASSWORD}', firstname: Ben, lastname: Roy }
`;

const course = (id: string, title: string, slides: number) => `
id: ${id}
title: ${title}
reference: REF-${id.toUpperCase()}
type: ${id === 'c4' || id === 'c5' ? 'practice' : 'plain'}
category: general
blocks:
${Array.from({ length: slides }, (_, i) => `  - { id: ${id}-s${i}, title: '${title} ${i + 1}', type: slide, sections: [{ rows: [{ type: wysiwyg, html: '<p>${title} ${i + 1}</p>' }] }] }`).join('\n')}
tree:
  children:
    - id: part
      title: Part
      children:
${Array.from({ length: slides }, (_, i) => `        - { id: p${i}, block: ${id}-s${i} }`).join('\n')}
`;

const PROGRAMS = `
programs:
  - { id: seq, name: Sequential, courses: [c1, c2, c3] }
  - id: branch
    name: Branching
    courses: [{ course: c1, unlocks: [c2, c3] }, c2, c3]
  - id: quiz
    name: Question
    courses:
      - course: c1
        question:
          label: Which one next?
          choices: [{ response: Two, target: c2 }, { response: Three, target: c3 }]
      - c2
      - c3
  - { id: all, name: All at once, settings: { unlock: all }, courses: [c4, c5] }
`;

const CLASSES = `
classes:
  - id: k-open
    name: Open class
    startAt: -1d
    expireAt: +30d
    programs: [{ program: seq }, { program: branch }, { program: quiz }, { program: all }]
    users: [{ user: ann, role: STUDENT }, { user: ben, role: STUDENT }]
  - id: k-narrow
    name: Narrow program
    startAt: -1d
    expireAt: +30d
    programs: [{ program: seq, startAt: +1d, expireAt: +2d }]
    users: [{ user: ann, role: STUDENT }]
  - id: k-later
    name: Later class
    startAt: +3d
    expireAt: +10d
    programs: [{ program: seq }]
    users: [{ user: ann, role: STUDENT }]
`;

function writeContent(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'parcours-prog-'));
  const t = path.join(root, 'tenants', 'prog');
  mkdirSync(path.join(t, 'courses'), { recursive: true });
  writeFileSync(path.join(t, 'tenant.yaml'), TENANT);
  writeFileSync(path.join(t, 'users.yaml'), USERS);
  const courses: [string, string, number][] = [
    ['c1', 'One', 2],
    ['c2', 'Two', 1],
    ['c3', 'Three', 1],
    ['c4', 'Four', 1],
    ['c5', 'Five', 1],
  ];
  for (const [id, title, slides] of courses)
    writeFileSync(path.join(t, 'courses', `${id}.yaml`), course(id, title, slides));
  writeFileSync(path.join(t, 'programs.yaml'), PROGRAMS);
  writeFileSync(path.join(t, 'classes.yaml'), CLASSES);
  return root;
}

export class ProgClock {
  constructor(public t = T_START) {}
  now = (): Date => new Date(this.t);
  set(ms: number): void {
    this.t = ms;
  }
}

type Who = 'ann' | 'ben';
type ClassAlias = 'k-open' | 'k-narrow' | 'k-later';
type Program = 'seq' | 'branch' | 'quiz' | 'all';

export interface ProgWorld {
  app: FastifyInstance;
  tdb: TestDb;
  clock: ProgClock;
  users: Record<Who, string>;
  /** The lesson id of a learner, class, program and course alias (c1..c5). */
  lesson(who: Who, cls: ClassAlias, program: Program, course: string): string;
  /** The class program id of a class and program. */
  classProgram(cls: ClassAlias, program: Program): string;
  programId(program: Program): string;
  classId(cls: ClassAlias): string;
  close(): Promise<void>;
}

export async function startProgWorld(): Promise<ProgWorld> {
  const tdb = await createTestDb();
  const content = writeContent();
  const filesDir = mkdtempSync(path.join(tmpdir(), 'parcours-prog-files-'));
  const clock = new ProgClock();
  const report = await importFolder(tdb.db, content, { filesDir, now: clock.now() });
  rmSync(content, { recursive: true, force: true });
  if (report.errors.length) throw new Error(`import failed: ${JSON.stringify(report.errors)}`);
  const app = await buildApp({
    env: testEnv(),
    db: tdb.db,
    dbKind: tdb.kind,
    filesDir,
    logger: false,
    now: clock.now,
  });
  await app.ready();
  const rows = await tdb.db
    .selectFrom('lessons as l')
    .innerJoin('users as u', 'u.id', 'l.userId')
    .innerJoin('courses as c', 'c.id', 'l.courseId')
    .innerJoin('classPrograms as cp', 'cp.id', 'l.classProgramId')
    .innerJoin('programs as p', 'p.id', 'cp.programId')
    .innerJoin('classes as k', 'k.id', 'l.classId')
    .select([
      'l.id',
      'u.email',
      'c.reference',
      'p.name',
      'k.name as className',
      'cp.id as cpId',
      'p.id as programId',
      'k.id as classId',
    ])
    .execute();
  const classNames: Record<ClassAlias, string> = {
    'k-open': 'Open class',
    'k-narrow': 'Narrow program',
    'k-later': 'Later class',
  };
  const programNames: Record<Program, string> = {
    seq: 'Sequential',
    branch: 'Branching',
    quiz: 'Question',
    all: 'All at once',
  };
  const find = (pred: (r: (typeof rows)[number]) => boolean, what: string) => {
    const row = rows.find(pred);
    if (!row) throw new Error(`nothing for ${what}`);
    return row;
  };
  const users = Object.fromEntries(
    await Promise.all(
      (['ann', 'ben'] as const).map(async (w) => [
        w,
        (
          await tdb.db
            .selectFrom('users')
            .select('id')
            .where('email', '=', `${w}@prog.test`)
            .executeTakeFirstOrThrow()
        ).id,
      ]),
    ),
  ) as Record<Who, string>;
  return {
    app,
    tdb,
    clock,
    users,
    lesson: (who, cls, program, c) =>
      find(
        (r) =>
          r.email === `${who}@prog.test` &&
          r.className === classNames[cls] &&
          r.name === programNames[program] &&
          r.reference === `REF-${c.toUpperCase()}`,
        `${who} ${cls} ${program} ${c}`,
      ).id,
    classProgram: (cls, program) =>
      find((r) => r.className === classNames[cls] && r.name === programNames[program], `${cls} ${program}`)
        .cpId,
    programId: (program) => find((r) => r.name === programNames[program], program).programId,
    classId: (cls) => find((r) => r.className === classNames[cls], cls).classId,
    async close() {
      await app.close();
      await tdb.close();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

export async function progLogin(app: FastifyInstance, who: Who): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { host: PROG_HOST },
    payload: { email: `${who}@prog.test`, password: PROG_PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`login ${who}: ${res.statusCode} ${res.body}`);
  return (res.json() as { access_token: string }).access_token;
}

export interface LessonDoc {
  id: string;
  attributes: {
    state: string;
    progress: string | null;
    isEndOfProgram: boolean;
    certificationRef: string | null;
    scoring: { global: { actual: number; max: number } };
    actions: {
      interactive: { label: string; choices: { response: string; action: { target: string } }[] }[];
      unlockedLessons: { id: string; title: string }[];
    };
  };
}

/** A small client for one learner. */
export function learner(app: FastifyInstance, token: string) {
  const headers = { host: PROG_HOST, authorization: `Bearer ${token}` };
  const send = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse> =>
    app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const lesson = async (id: string): Promise<LessonDoc> => {
    const res = await send('GET', `/api/lessons/${id}`);
    if (res.statusCode !== 200) throw new Error(`GET lesson ${id}: ${res.statusCode} ${res.body}`);
    return (res.json() as { data: LessonDoc }).data;
  };
  return {
    send,
    lesson,
    state: async (id: string) => (await lesson(id)).attributes.state,
    actions: (id: string, inputs: unknown) => send('POST', `/api/lessons/${id}/actions`, { inputs }),
    /** Reads every slide of the lesson through the player, closing each one (slides complete on PATCH). */
    async complete(id: string): Promise<LightMyRequestResponse> {
      let res = await send('GET', `/api/lessons/${id}/pages/current`);
      for (let guard = 0; guard < 20; guard++) {
        if (res.statusCode !== 200) return res;
        const pageId = (res.json() as { data: { id: string } }).data.id;
        const closed = await send('PATCH', `/api/lessons/${id}/pages/current`, { pageId });
        if (closed.statusCode !== 200) return closed;
        res = await send('POST', `/api/lessons/${id}/pages/next`, { fromPageId: pageId });
      }
      throw new Error('lesson never ended');
    },
  };
}

export const codeOf = (res: LightMyRequestResponse): string | undefined =>
  (res.json() as { errors?: { code: string }[] }).errors?.[0]?.code;
export const pointerOf = (res: LightMyRequestResponse): string | undefined =>
  (res.json() as { errors?: { source?: { pointer?: string } }[] }).errors?.[0]?.source?.pointer;
