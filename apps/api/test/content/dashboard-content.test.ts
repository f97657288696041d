import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFolder } from '../../src/content/importer';
import type { ImportReport } from '../../src/content/importer';
import { parseJson } from '../../src/db/schema';
import { stableId } from '../../src/lib/ids';
import type { TestDb } from './helpers';
import { openTestDb } from './helpers';

/**
 * The format additions for the learner's dashboard (docs/content-format.md): badge settings,
 * certifying courses, page-by-page history with dates and scores, derived XP and records, and
 * log book notes. A small folder imported at a fixed day, so every date is known.
 */

const NOW = new Date('2026-06-15T12:00:00Z');
const day = (n: number) => new Date(Date.UTC(2026, 5, 15 + n)).toISOString();
const at = (n: number, minutes: number) => new Date(Date.UTC(2026, 5, 15 + n, 9, 30 + minutes)).toISOString();

const SETTINGS = (extra = '') => `
settings:
  defaultLocale: fr
  login: { internal: true, oidc: null }
  invitationCodes: { enabled: false, simplePassword: false }
  certification: { allowed: true, type: attestation }
  allowContactTeacher: true
  profile: { fields: { firstname: true, lastname: true, email: true, username: false, birthday: false } }
  requiredDatas: false
  emailNotifications: false
  demoVideoUrl: null
  legal: { cgu: null, rgpd: null }
${extra}`;

const TYPES = `
courseTypes:
  - { id: std, title: Standard, settings: { hints: true, feedbacks: true, retry: true } }
  - { id: cert, title: Certifying, settings: { hints: true, feedbacks: true, retry: false, certificate: true } }
categories: [{ id: cat, title: Cat, icon: shield }]
competencies:
  - { id: top, title: Top, icon: shield }
  - { id: sub, title: Sub, parent: top, icon: leaf }
`;

/** A course of three pages: a slide (0 points), one exercise row (10), two rows (20). */
const course = (id: string, extra: string) => `
id: ${id}
title: Course ${id}
type: ${id === 'plain' ? 'std' : 'cert'}
category: cat
${extra}
blocks:
  - { id: ${id}-slide, title: Slide, type: slide, competency: sub, sections: [{ rows: [{ type: wysiwyg, html: '<p>x</p>' }] }] }
  - id: ${id}-one
    title: One
    type: exercice
    competency: sub
    sections: [{ rows: [{ type: combined-choice, choices: [{ value: a }, { value: b }], expected: 0 }] }]
  - id: ${id}-two
    title: Two
    type: exercice
    competency: sub
    sections:
      - rows:
          - { type: combined-choice, choices: [{ value: a }, { value: b }], expected: 1 }
          - { type: multiple-choice, choices: [{ value: a }, { value: b }], expected: [0] }
tree:
  children:
    - id: s1
      children: [{ id: p1, block: ${id}-slide }, { id: p2, block: ${id}-one }, { id: p3, block: ${id}-two }]
`;

const USERS = `
users:
  - { id: ann, email: ann@example.com, password: 'Ann#2026x' }
  - { id: tom, email: tom@example.com, password: 'Tom#2026x' }
`;
const PROGRAMS =
  'programs:\n  - { id: prog, name: Prog, settings: { unlock: all }, courses: [exam, plain] }\n';

const CLASSES = `
classes:
  - id: c1
    name: Class 1
    startAt: -30d
    expireAt: -1d
    programs: [{ program: prog }]
    users:
      - user: ann
        role: STUDENT
        history:
          - { course: exam, pagesDone: 3, state: DONE, ratio: 0.8, activity: { from: -10d, to: -2d }, timeSpent: 301, certificationRef: EXAM-0001 }
          - { course: plain, pagesDone: 1, state: AVAILABLE, score: { actual: 0, max: 0 }, startedAt: -1d }
        logbook:
          - { title: My note, message: "Line one\\nLine two", date: -5d }
          - { title: About Ann, message: Good progress., date: -3d, author: tom }
      - { user: tom, role: TEACHER }
`;

function makeFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'parcours-dash-'));
  for (const [rel, text] of Object.entries(files)) {
    const full = path.join(dir, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return dir;
}

const VALID = {
  'tenants/t/tenant.yaml': `alias: t\nname: T\n${SETTINGS('  badges: { xpPeriodDays: 30 }')}${TYPES}`,
  'tenants/t/users.yaml': USERS,
  'tenants/t/courses/exam.yaml': course('exam', 'certification: { passingScore: 0.7 }'),
  'tenants/t/courses/plain.yaml': course('plain', ''),
  'tenants/t/programs.yaml': PROGRAMS,
  'tenants/t/classes.yaml': CLASSES,
};

const ann = stableId('t', 'user', 'ann');
const lessonOf = (courseId: string) =>
  stableId(
    ann,
    stableId('t', 'class-program', 'c1', 'prog'),
    stableId('t', 'program-course', 'prog', courseId),
  );

describe('content for the dashboard', () => {
  let t: TestDb;
  let dir: string;
  let first: ImportReport;

  beforeAll(async () => {
    t = await openTestDb();
    dir = makeFolder(VALID);
    first = await importFolder(t.db, dir, { filesDir: t.filesDir, now: NOW });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports without errors', () => {
    expect(first.errors).toEqual([]);
    expect(first.ok).toBe(true);
  });

  it('stores the badge settings with their defaults in the context settings', async () => {
    const ctx = await t.db.selectFrom('contexts').select('settings').executeTakeFirstOrThrow();
    expect(parseJson<{ badges: unknown }>(ctx.settings, { badges: null }).badges).toEqual({
      xpPeriodDays: 30,
      levels: 'level',
      jobs: 'theme',
    });
  });

  it('stores a certifying course as courses.settings.certification, wording from the tenant by default', async () => {
    const row = await t.db
      .selectFrom('courses')
      .select('settings')
      .where('id', '=', stableId('t', 'course', 'exam'))
      .executeTakeFirstOrThrow();
    expect(parseJson(row.settings, {})).toEqual({
      certification: { passingScore: 0.7, wording: 'attestation' },
    });
    const icons = await t.db
      .selectFrom('courseCompetencies')
      .select(['title', 'icon'])
      .orderBy('title')
      .execute();
    expect(icons).toEqual([
      { title: 'Sub', icon: 'leaf' },
      { title: 'Top', icon: 'shield' },
    ]);
  });

  it('spreads the pages over the activity days, with their points, share of time and the certificate', async () => {
    const pages = await t.db
      .selectFrom('lessonPages')
      .selectAll()
      .where('lessonId', '=', lessonOf('exam'))
      .orderBy('position')
      .execute();
    expect(
      pages.map((p) => ({
        progress: p.progress,
        answeredAt: p.answeredAt,
        score: [p.scoreActual, p.scoreMax],
        timeSpent: p.timeSpent,
      })),
    ).toEqual([
      { progress: 'COMPLETED', answeredAt: at(-10, 0), score: [0, 0], timeSpent: 100 },
      { progress: 'COMPLETED', answeredAt: at(-6, 11), score: [8, 10], timeSpent: 100 },
      { progress: 'COMPLETED', answeredAt: at(-2, 22), score: [16, 20], timeSpent: 101 },
    ]);
    expect(pages[1]!.openedAt).toBe(new Date(Date.parse(at(-6, 11)) - 100_000).toISOString());
    const lesson = await t.db
      .selectFrom('lessons')
      .selectAll()
      .where('id', '=', lessonOf('exam'))
      .executeTakeFirstOrThrow();
    expect(lesson).toMatchObject({
      state: 'DONE',
      progress: 'COMPLETED',
      startedAt: day(-10),
      endedAt: at(-2, 22),
      timeSpent: 301,
      certificationRef: 'EXAM-0001',
    });
    expect(parseJson(lesson.scoring, {})).toEqual({ global: { actual: 24, max: 30 } });
  });

  it('derives XP, done pages and one record per day from the history pages', async () => {
    const user = await t.db
      .selectFrom('users')
      .select(['scoring', 'donePageCount', 'timeAlive'])
      .where('id', '=', ann)
      .executeTakeFirstOrThrow();
    // Three pages of the exam, and the plain course's first page (answered at its start, no score).
    expect(parseJson(user.scoring, {})).toEqual({ xp: 24 });
    expect(user).toMatchObject({ donePageCount: 4, timeAlive: 301 });
    const records = await t.db
      .selectFrom('records')
      .select(['id', 'date', 'scoring'])
      .where('userId', '=', ann)
      .orderBy('date')
      .execute();
    expect(records.map((r) => ({ date: r.date, scoring: parseJson(r.scoring, {}) }))).toEqual([
      { date: at(-10, 0), scoring: { xp: 0, donePageCount: 1, timeAlive: 100 } },
      { date: at(-6, 11), scoring: { xp: 8, donePageCount: 2, timeAlive: 200 } },
      { date: at(-2, 22), scoring: { xp: 24, donePageCount: 3, timeAlive: 301 } },
      { date: day(-1), scoring: { xp: 24, donePageCount: 4, timeAlive: 301 } },
    ]);
    // The server's id for that learner and day: its own writes that day update the same row.
    expect(records[0]!.id).toBe(stableId(ann, 'record', at(-10, 0).slice(0, 10)));
  });

  it('writes the log book notes: the learner’s own and a teacher’s about them', async () => {
    const notes = await t.db.selectFrom('logBookRecords').selectAll().orderBy('createdAt').execute();
    expect(
      notes.map((n) => ({
        title: n.title,
        message: n.message,
        student: n.studentId,
        author: n.userId,
        at: n.createdAt,
      })),
    ).toEqual([
      { title: 'My note', message: 'Line one\nLine two', student: ann, author: ann, at: day(-5) },
      {
        title: 'About Ann',
        message: 'Good progress.',
        student: ann,
        author: stableId('t', 'user', 'tom'),
        at: day(-3),
      },
    ]);
    expect(notes[0]).toMatchObject({
      classId: stableId('t', 'class', 'c1'),
      parentId: null,
      lastInputAt: day(-5),
    });
  });

  it('changes nothing when imported again the same day', async () => {
    const again = await importFolder(t.db, dir, { filesDir: t.filesDir, now: NOW });
    expect(again.ok).toBe(true);
    const changed = Object.entries(again.changes).filter(([, c]) => c.created || c.updated || c.deleted);
    expect(changed).toEqual([]);
  });

  it('moves with the import day: records of the old days are replaced, not added', async () => {
    const later = await importFolder(t.db, dir, {
      filesDir: t.filesDir,
      now: new Date('2026-06-20T08:00:00Z'),
    });
    expect(later.ok).toBe(true);
    const records = await t.db
      .selectFrom('records')
      .select('date')
      .where('userId', '=', ann)
      .orderBy('date')
      .execute();
    expect(records.map((r) => r.date.slice(0, 10))).toEqual([
      '2026-06-10',
      '2026-06-14',
      '2026-06-18',
      '2026-06-19',
    ]);
    expect(await t.db.selectFrom('logBookRecords').select('id').execute()).toHaveLength(2);
  });
});

describe('content for the dashboard: errors name the file and the path', () => {
  let t: TestDb;
  let dir: string;
  let report: ImportReport;

  beforeAll(async () => {
    t = await openTestDb();
    dir = makeFolder({
      ...VALID,
      'tenants/t/tenant.yaml': `alias: t\nname: T\n${SETTINGS('  badges: { xpPeriodDays: 0, levels: medal }')}${TYPES.replace('icon: leaf', 'icon: Leaf!')}`,
      'tenants/t/courses/plain.yaml': course(
        'plain',
        'certification: { passingScore: 1.5 }\nsettings: { certification: {} }',
      ),
      'tenants/t/classes.yaml': `
classes:
  - id: c1
    name: Class 1
    programs: [{ program: prog }]
    users:
      - user: ann
        role: STUDENT
        history:
          - { course: exam, pagesDone: 3, state: DONE, ratio: 0.6, certificationRef: EXAM-1 }
          - { course: exam, pagesDone: 3, state: AVAILABLE, ratio: 0.9, certificationRef: EXAM-2, activity: { from: -2d, to: -9d } }
          - { course: plain, pagesDone: 1, state: DONE, ratio: 1, score: { actual: 1, max: 1 } }
        logbook:
          - { title: From a stranger, date: -1d, author: ann2 }
      - user: tom
        role: TEACHER
        logbook: [{ title: Misplaced, date: -1d }]
  - id: c2
    name: Class 2
    programs: [{ program: prog }]
    users:
      - user: ann
        role: STUDENT
        history: [{ course: exam, pagesDone: 3, state: DONE, ratio: 1, certificationRef: EXAM-1 }]
`,
    });
    report = await importFolder(t.db, dir, { filesDir: t.filesDir, now: NOW });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const errorsOf = (file: string) =>
    report.errors.filter((e) => e.file === `tenants/t/${file}`).map((e) => `${e.path}: ${e.message}`);

  it('refuses the folder and writes nothing', async () => {
    expect(report.ok).toBe(false);
    expect(await t.db.selectFrom('contexts').select('id').execute()).toEqual([]);
  });

  it('checks badge settings and icon names in tenant.yaml', () => {
    const errors = errorsOf('tenant.yaml');
    expect(errors.some((e) => e.startsWith('settings.badges.xpPeriodDays:'))).toBe(true);
    expect(errors.some((e) => e.startsWith('settings.badges.levels:'))).toBe(true);
    expect(errors.some((e) => e.startsWith('competencies[1].icon: an icon name'))).toBe(true);
  });

  it('checks a certifying course’s passing score', () => {
    expect(errorsOf('courses/plain.yaml').some((e) => e.startsWith('certification.passingScore:'))).toBe(
      true,
    );
  });

  it('checks history, certificates and log book notes across files', async () => {
    // The tenant and course files failed their schema; fix them to see the cross-file checks.
    const fixed = makeFolder({
      ...VALID,
      'tenants/t/courses/plain.yaml': course(
        'plain',
        'certification: { passingScore: 0.5 }\nsettings: { certification: {} }',
      ),
      'tenants/t/classes.yaml': readFileSync(path.join(dir, 'tenants/t/classes.yaml'), 'utf8'),
    });
    const r = await importFolder(t.db, fixed, { filesDir: t.filesDir, now: NOW });
    rmSync(fixed, { recursive: true, force: true });
    const at = (file: string) =>
      r.errors.filter((e) => e.file === `tenants/t/${file}`).map((e) => `${e.path}: ${e.message}`);
    expect(at('courses/plain.yaml')).toEqual([
      'certification: a certifying course needs a course type with settings.certificate: true',
      "settings.certification: give the certification settings as the course's certification field",
    ]);
    expect(at('classes.yaml')).toEqual([
      'classes[0].users[0].history[2].score: give either score (the lesson as a whole) or ratio (page by page), not both',
    ]);
    // Without the schema error, the cross-file checks of classes.yaml run.
    const fixed2 = makeFolder({
      ...VALID,
      'tenants/t/classes.yaml': readFileSync(path.join(dir, 'tenants/t/classes.yaml'), 'utf8').replace(
        ', score: { actual: 1, max: 1 }',
        '',
      ),
    });
    const r2 = await importFolder(t.db, fixed2, { filesDir: t.filesDir, now: NOW });
    rmSync(fixed2, { recursive: true, force: true });
    expect(r2.errors.map((e) => `${e.file}: ${e.path}: ${e.message}`)).toEqual([
      "tenants/t/classes.yaml: classes[0].users[0].history[0].certificationRef: the lesson's score is below the course's passing score (0.7)",
      'tenants/t/classes.yaml: classes[0].users[0].history[1].course: course "exam" of program "prog" already has a history entry',
      'tenants/t/classes.yaml: classes[0].users[0].history[1].activity: from is after to',
      'tenants/t/classes.yaml: classes[0].users[0].history[1].certificationRef: only an ended lesson (state DONE) has a certificate',
      'tenants/t/classes.yaml: classes[0].users[0].logbook[0].author: "ann2" is neither this student nor a TEACHER of this class',
      'tenants/t/classes.yaml: classes[0].users[1].logbook: log book notes are listed under the STUDENT they are about',
      'tenants/t/classes.yaml: classes[1].users[0].history[0].certificationRef: duplicate certification reference id "EXAM-1" (first in tenants/t/classes.yaml)',
    ]);
  });
});
