import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureLessons } from '../../src/content/enrolment';
import { importFolder } from '../../src/content/importer';
import { stableId } from '../../src/lib/ids';
import type { TestDb } from './helpers';
import { DEMO, openTestDb } from './helpers';

let t: TestDb;
const NOW = new Date('2026-03-10T08:00:00Z');

beforeAll(async () => {
  t = await openTestDb();
  const report = await importFolder(t.db, DEMO, { filesDir: t.filesDir, now: NOW });
  expect(report.errors).toEqual([]);
});
afterAll(async () => t.close());

describe('ensureLessons', () => {
  it('is idempotent', async () => {
    const before = await t.db.selectFrom('lessons').select('id').execute();
    const r = await ensureLessons(t.db, {}, NOW);
    expect(r.created).toBe(0);
    expect(r.unchanged).toBe(before.length);
  });

  it('creates the lessons of a new enrolment, scoped to that user, and leaves history alone', async () => {
    const classId = stableId('fr', 'class', 'force-de-vente-2026');
    const lea = stableId('fr', 'user', 'lea');
    await t.db
      .insertInto('classUsers')
      .values({ id: 'cu-lea-sales', classId, userId: lea, role: 'STUDENT', createdAt: NOW.toISOString() })
      .execute();
    const r = await ensureLessons(t.db, { userId: lea }, NOW);
    expect(r.created).toBe(2); // parcours-commercial: vente-conseil, maths-fractions
    const lessons = await t.db
      .selectFrom('lessons')
      .innerJoin('programCourses', 'programCourses.id', 'lessons.programCourseId')
      .select(['lessons.state', 'lessons.startAt', 'lessons.contextId'])
      .where('lessons.userId', '=', lea)
      .where('lessons.classId', '=', classId)
      .orderBy('programCourses.order')
      .execute();
    expect(lessons.map((l) => l.state)).toEqual(['AVAILABLE', 'LOCKED']);
    // The class program's own (narrower) window gives the lesson its start.
    expect(lessons[0]!.startAt).toBe(new Date(Date.UTC(2026, 2, 5)).toISOString());
    expect(lessons[0]!.contextId).toBe(stableId('context', 'fr'));
    expect((await ensureLessons(t.db, { classId }, NOW)).created).toBe(0);
  });
});
