import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXERCISE_TYPES, ROW_TYPES } from '@parcours/domain/entities';
import { importFolder } from '../../src/content/importer';
import type { ImportReport } from '../../src/content/importer';
import { parseJson } from '../../src/db/schema';
import { stableId } from '../../src/lib/ids';
import { homePageOf } from '../../src/modules/lrs/credentials';
import { verifyPassword } from '../../src/lib/password';
import type { TestDb } from './helpers';
import { DEMO, openTestDb } from './helpers';

// A fixed import day, so relative dates are checkable; 15:42 UTC resolves to that day's midnight.
const NOW = new Date('2026-03-10T15:42:00Z');
const DAY = 86_400_000;
const MIDNIGHT = Date.UTC(2026, 2, 10);

let t: TestDb;
let first: ImportReport;
const ctx = (alias: string) => stableId('context', alias);

beforeAll(async () => {
  t = await openTestDb();
  first = await importFolder(t.db, DEMO, { filesDir: t.filesDir, now: NOW });
});
afterAll(async () => t.close());

describe('demo content import', () => {
  it('imports the demo folder without any error', () => {
    expect(first.errors).toEqual([]);
    expect(first.ok).toBe(true);
    expect(first.changes.contexts?.created).toBe(3);
  });

  it('changes nothing when the same folder is imported again the same day', async () => {
    const again = await importFolder(t.db, DEMO, {
      filesDir: t.filesDir,
      now: new Date(NOW.getTime() + 3_600_000),
    });
    expect(again.ok).toBe(true);
    for (const [table, c] of Object.entries(again.changes)) {
      expect({ table, ...c }).toEqual({ table, created: 0, updated: 0, unchanged: c.unchanged });
      expect(c.unchanged).toBeGreaterThan(0);
    }
    expect(Object.keys(again.changes).sort()).toEqual(Object.keys(first.changes).sort());
  });

  it('creates the French, English and generic tenants with their host names', async () => {
    const rows = await t.db.selectFrom('contextHostnames').selectAll().orderBy('hostname').execute();
    expect(rows).toEqual([
      { hostname: '127.0.0.1', contextId: ctx('fr') },
      { hostname: 'en.localhost', contextId: ctx('en') },
      { hostname: 'localhost', contextId: ctx('fr') },
    ]);
    const generic = await t.db.selectFrom('contexts').selectAll().where('isGeneric', '=', 1).execute();
    expect(generic.map((g) => g.alias)).toEqual(['generic']);
    const fr = await t.db
      .selectFrom('contexts')
      .selectAll()
      .where('alias', '=', 'fr')
      .executeTakeFirstOrThrow();
    const settings = parseJson<Record<string, unknown>>(fr.settings, {});
    expect(settings).toMatchObject({ defaultLocale: 'fr', login: { internal: true, oidc: null } });
    const assets = parseJson<{ logo: string }>(fr.assets, { logo: '' });
    expect(assets.logo).toMatch(/^\/api\/files\/[0-9a-f-]{36}\/download$/);
  });

  it('hashes the demo passwords, per tenant, and gives the admin the admin role', async () => {
    for (const alias of ['fr', 'en']) {
      for (const [email, pwd] of [
        ['learner@example.com', 'Learner#2026'],
        ['teacher@example.com', 'Teacher#2026'],
        ['admin@example.com', 'Admin#2026'],
      ] as const) {
        const u = await t.db
          .selectFrom('users')
          .selectAll()
          .where('contextId', '=', ctx(alias))
          .where('email', '=', email)
          .executeTakeFirstOrThrow();
        expect(u.passwordHash).not.toContain(pwd);
        expect(await verifyPassword(pwd, u.passwordHash)).toBe(true);
      }
    }
    const admins = await t.db
      .selectFrom('roleUsers')
      .innerJoin('roles', 'roles.id', 'roleUsers.roleId')
      .innerJoin('users', 'users.id', 'roleUsers.principalId')
      .select(['users.email', 'roles.name', 'roleUsers.scopeId'])
      .execute();
    expect(admins).toHaveLength(2);
    expect(admins.every((a) => a.email === 'admin@example.com' && a.name === 'admin')).toBe(true);
  });

  it('copies media under filesDir/<contextId>/<sha256>.<ext> and the tincan modules', async () => {
    const files = await t.db.selectFrom('files').selectAll().execute();
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      expect(f.storagePath).toBe(`${f.contextId}/${f.sha256}.${f.name.split('.').pop()}`);
      expect(existsSync(path.join(t.filesDir, f.storagePath))).toBe(true);
      expect(['image', 'pdf', 'audio', 'video']).toContain(f.fileType);
    }
    // A module folder's block (the packages' blocks, issue 31, have a `package` instead).
    const blocks = await t.db
      .selectFrom('courseBlocks')
      .select('content')
      .where('type', '=', 'tincan')
      .execute();
    const url = blocks
      .map((b) => parseJson<{ tincan?: { url: string } }>(b.content, {}).tincan?.url)
      .find((u) => u?.startsWith('/api/tincan/'))!;
    const rel = url.replace(/^\/api\/tincan\//, '');
    expect(existsSync(path.join(t.filesDir, 'tincan', rel))).toBe(true);
  });

  it('uses every block kind and row type, with at least 4 courses of 2+ sections', async () => {
    const blocks = await t.db.selectFrom('courseBlocks').select(['type', 'content']).execute();
    expect(new Set(blocks.map((b) => b.type))).toEqual(new Set(['slide', 'exercice', 'tincan']));
    const rowTypes = new Set<string>();
    for (const b of blocks)
      for (const s of parseJson<{ sections: { rows: { type: string }[] }[] }>(b.content, { sections: [] })
        .sections)
        for (const r of s.rows) rowTypes.add(r.type);
    for (const type of EXERCISE_TYPES) expect(rowTypes).toContain(type);
    for (const type of ROW_TYPES.filter((x) => x !== 'media-tincan')) expect(rowTypes).toContain(type);

    const courses = await t.db
      .selectFrom('courses')
      .select(['id', 'contextId'])
      .where('contextId', '=', ctx('fr'))
      .execute();
    expect(courses.length).toBeGreaterThanOrEqual(4);
    for (const c of courses) {
      const nodes = await t.db
        .selectFrom('courseNodes')
        .select(['type', 'settings', 'tools'])
        .where('courseId', '=', c.id)
        .execute();
      expect(nodes.filter((n) => n.type === 'container').length).toBeGreaterThanOrEqual(2);
      expect(nodes.filter((n) => n.type === 'block').length).toBeGreaterThanOrEqual(4);
    }
    const nodes = await t.db.selectFrom('courseNodes').select(['type', 'settings', 'tools']).execute();
    expect(nodes.some((n) => n.type === 'multiblock')).toBe(true);
    expect(nodes.some((n) => parseJson<{ timeLimit?: number }>(n.settings, {}).timeLimit)).toBe(true);
    expect(nodes.some((n) => parseJson<{ calculator?: boolean }>(n.tools, {}).calculator)).toBe(true);
  });

  it('resolves relative class windows to whole UTC days around the import day', async () => {
    const learner = stableId('fr', 'user', 'learner');
    const classes = await t.db
      .selectFrom('classes')
      .innerJoin('classUsers', 'classUsers.classId', 'classes.id')
      .select(['classes.name', 'classes.startAt', 'classes.expireAt'])
      .where('classUsers.userId', '=', learner)
      .where('classUsers.role', '=', 'STUDENT')
      .execute();
    expect(classes.length).toBeGreaterThanOrEqual(7);
    for (const c of classes) expect(c.startAt).toMatch(/T00:00:00\.000Z$/);
    const now = NOW.getTime();
    const past = classes.filter((c) => Date.parse(c.expireAt!) < now);
    const future = classes.filter((c) => Date.parse(c.startAt!) > now);
    expect(past.length).toBeGreaterThan(0);
    expect(future.length).toBeGreaterThan(0);
    expect(classes.length - past.length - future.length).toBeGreaterThan(0);
    const spring = await t.db
      .selectFrom('classes')
      .selectAll()
      .where('id', '=', stableId('fr', 'class', 'printemps-savoirs'))
      .executeTakeFirstOrThrow();
    expect(spring.startAt).toBe(new Date(MIDNIGHT - 20 * DAY).toISOString());
    expect(spring.expireAt).toBe(new Date(MIDNIGHT + 40 * DAY).toISOString());
    // The sales class program is narrower than its class.
    const cp = await t.db
      .selectFrom('classPrograms')
      .selectAll()
      .where('id', '=', stableId('fr', 'class-program', 'force-de-vente-2026', 'parcours-commercial'))
      .executeTakeFirstOrThrow();
    expect(cp.expireAt).toBe(new Date(MIDNIGHT + 25 * DAY).toISOString());
  });
});

describe('lessons for enrolments', () => {
  it('creates one lesson per student, class program and program course; first AVAILABLE, others LOCKED', async () => {
    const lea = stableId('fr', 'user', 'lea');
    const classProgramId = stableId('fr', 'class-program', 'printemps-savoirs', 'savoirs-de-base');
    const lessons = await t.db
      .selectFrom('lessons')
      .innerJoin('programCourses', 'programCourses.id', 'lessons.programCourseId')
      .select([
        'lessons.id',
        'lessons.state',
        'lessons.courseId',
        'lessons.enabledSectionIds',
        'lessons.scoring',
        'programCourses.order',
      ])
      .where('lessons.userId', '=', lea)
      .where('lessons.classProgramId', '=', classProgramId)
      .orderBy('programCourses.order')
      .execute();
    expect(lessons.map((l) => l.state)).toEqual(['AVAILABLE', 'LOCKED']);
    const pcId = stableId('fr', 'program-course', 'savoirs-de-base', 'maths-fractions');
    expect(lessons[0]!.id).toBe(stableId(lea, classProgramId, pcId));
    expect(parseJson(lessons[0]!.scoring, {})).toEqual({ global: { actual: 0, max: 0 } });
    const sections = await t.db
      .selectFrom('courseNodes')
      .select('id')
      .where('courseId', '=', lessons[0]!.courseId)
      .where('type', '=', 'container')
      .orderBy('order')
      .execute();
    expect(parseJson(lessons[0]!.enabledSectionIds, [])).toEqual(sections.map((s) => s.id));
    // Teachers get no lessons.
    const teacherLessons = await t.db
      .selectFrom('lessons')
      .select('id')
      .where('userId', '=', stableId('fr', 'user', 'teacher'))
      .execute();
    expect(teacherLessons).toEqual([]);
  });

  it('seeds the demo learner history: DONE and in-progress lessons with their pages', async () => {
    const learner = stableId('fr', 'user', 'learner');
    const cp = stableId('fr', 'class-program', 'printemps-savoirs', 'savoirs-de-base');
    const done = await t.db
      .selectFrom('lessons')
      .selectAll()
      .where(
        'id',
        '=',
        stableId(learner, cp, stableId('fr', 'program-course', 'savoirs-de-base', 'maths-fractions')),
      )
      .executeTakeFirstOrThrow();
    expect(done).toMatchObject({ state: 'DONE', progress: 'COMPLETED', currentNodeId: null });
    expect(parseJson(done.scoring, {})).toEqual({ global: { actual: 42, max: 50 } });
    const ongoing = await t.db
      .selectFrom('lessons')
      .selectAll()
      .where(
        'id',
        '=',
        stableId(learner, cp, stableId('fr', 'program-course', 'savoirs-de-base', 'culture-entreprise')),
      )
      .executeTakeFirstOrThrow();
    expect(ongoing).toMatchObject({ state: 'AVAILABLE', progress: 'ONGOING' });
    const pages = await t.db
      .selectFrom('lessonPages')
      .selectAll()
      .where('lessonId', '=', ongoing.id)
      .orderBy('position')
      .execute();
    expect(pages.map((p) => p.progress)).toEqual(['COMPLETED', 'COMPLETED', 'ONGOING']);
    expect(ongoing.currentNodeId).toBe(pages[2]!.nodeId);
    const node = await t.db
      .selectFrom('courseNodes')
      .selectAll()
      .where('id', '=', pages[0]!.nodeId)
      .executeTakeFirstOrThrow();
    expect(node).toMatchObject({ type: 'block', courseId: ongoing.courseId });
    expect(pages[0]!.sectionId).toBe(node.parentId);
  });
});

describe('the demo tenants served on another port (issue 39: the actor names the real origin)', () => {
  it("writes the localhost app origins with the app's port, so a learner's actor names where the tenant is served", async () => {
    const origins = async () =>
      Object.fromEntries(
        (await t.db.selectFrom('contexts').select(['alias', 'hosts']).execute()).map((row) => [
          row.alias,
          homePageOf(row),
        ]),
      );
    expect(await origins()).toMatchObject({ fr: 'http://localhost:3000', en: 'http://en.localhost:3000' });

    const moved = await importFolder(t.db, DEMO, { filesDir: t.filesDir, now: NOW, appPort: 4100 });
    expect(moved.ok).toBe(true);
    expect(moved.changes.contexts).toMatchObject({ updated: 2 });
    expect(await origins()).toMatchObject({ fr: 'http://localhost:4100', en: 'http://en.localhost:4100' });

    // Served on the port the content names: nothing moves.
    const back = await importFolder(t.db, DEMO, { filesDir: t.filesDir, now: NOW, appPort: 3000 });
    expect(back.changes.contexts).toMatchObject({ updated: 2 });
    const again = await importFolder(t.db, DEMO, { filesDir: t.filesDir, now: NOW, appPort: 3000 });
    expect(again.changes.contexts).toMatchObject({ updated: 0 });
    expect(await origins()).toMatchObject({ fr: 'http://localhost:3000', en: 'http://en.localhost:3000' });
  });
});
