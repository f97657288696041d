import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { medalOf } from '@parcours/domain/medal';
import { importFolder } from '../../src/content/importer';
import { parseJson } from '../../src/db/schema';
import { stableId } from '../../src/lib/ids';
import type { TestDb } from './helpers';
import { DEMO, openTestDb } from './helpers';

/**
 * The demo content shows off the learner's dashboard in both tenants (issue 9): a medal at each
 * level, started and unstarted categories, activity over the last months, a certificate and an
 * attestation, log book notes, and an XP that changed over the badge period.
 */

const NOW = new Date('2026-11-23T10:00:00Z');
const DAY = 86_400_000;

describe.each([
  {
    alias: 'fr',
    gold: 'calcul',
    silver: 'prevention',
    bronze: 'entreprise',
    none: 'relation-client',
    unstarted: 'vente',
  },
  {
    alias: 'en',
    gold: 'numeracy',
    silver: 'prevention',
    bronze: 'sustainability',
    none: 'customer-care',
    unstarted: 'customer',
  },
])('demo dashboard of the $alias tenant', (tenant) => {
  let t: TestDb;
  const id = (kind: string, slug: string) => stableId(tenant.alias, kind, slug);
  const learner = stableId(tenant.alias, 'user', 'learner');

  beforeAll(async () => {
    t = await openTestDb();
    const report = await importFolder(t.db, DEMO, { filesDir: t.filesDir, now: NOW });
    expect(report.errors).toEqual([]);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Points of the learner's graded pages under a top competency (itself and its children). */
  async function ratioOf(top: string): Promise<number> {
    const rows = await t.db
      .selectFrom('lessonPages as p')
      .innerJoin('lessons as l', 'l.id', 'p.lessonId')
      .innerJoin('courseNodes as n', 'n.id', 'p.nodeId')
      .innerJoin('courseBlocks as b', 'b.id', 'n.blockId')
      .innerJoin('courseCompetencies as c', 'c.id', 'b.competencyId')
      .select(['p.scoreActual', 'p.scoreMax'])
      .where('l.userId', '=', learner)
      .where('p.scoreMax', '>', 0)
      .where((eb) =>
        eb.or([eb('c.id', '=', id('competency', top)), eb('c.parentId', '=', id('competency', top))]),
      )
      .execute();
    const max = rows.reduce((s, r) => s + r.scoreMax, 0);
    return max ? rows.reduce((s, r) => s + r.scoreActual, 0) / max : 0;
  }

  it('gives the learner a gold, a silver, a bronze and no medal', async () => {
    expect(medalOf(await ratioOf(tenant.gold))).toBe('gold');
    expect(medalOf(await ratioOf(tenant.silver))).toBe('silver');
    expect(medalOf(await ratioOf(tenant.bronze))).toBe('bronze');
    expect(medalOf(await ratioOf(tenant.none))).toBeNull();
  });

  it('has started categories and one the learner is enrolled in but has not started', async () => {
    const lessons = await t.db
      .selectFrom('lessons as l')
      .innerJoin('courses as c', 'c.id', 'l.courseId')
      .select(['c.categoryId', 'l.startedAt'])
      .where('l.userId', '=', learner)
      .execute();
    const started = new Set(lessons.filter((l) => l.startedAt).map((l) => l.categoryId));
    expect(started.size).toBeGreaterThanOrEqual(3);
    expect(lessons.some((l) => l.categoryId === id('category', tenant.unstarted))).toBe(true);
    expect(started.has(id('category', tenant.unstarted))).toBe(false);
  });

  it('spreads answered pages over the last five months', async () => {
    const pages = await t.db
      .selectFrom('lessonPages as p')
      .innerJoin('lessons as l', 'l.id', 'p.lessonId')
      .select('p.answeredAt')
      .where('l.userId', '=', learner)
      .where('p.progress', '=', 'COMPLETED')
      .where('p.answeredAt', '>=', new Date(NOW.getTime() - 155 * DAY).toISOString())
      .execute();
    const months = new Set(pages.map((p) => p.answeredAt!.slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(5);
  });

  it('has ended certifying lessons worded as a certificate and as an attestation', async () => {
    const rows = await t.db
      .selectFrom('lessons as l')
      .innerJoin('courses as c', 'c.id', 'l.courseId')
      .select(['l.certificationRef', 'l.progress', 'c.settings'])
      .where('l.userId', '=', learner)
      .where('l.certificationRef', 'is not', null)
      .execute();
    const wordings = rows.map((r) => {
      expect(r.progress).toBe('COMPLETED');
      return parseJson<{ certification?: { wording: string } }>(r.settings, {}).certification?.wording;
    });
    expect(wordings.sort()).toEqual(['attestation', 'certification']);
  });

  it('has the learner’s own log book notes and a teacher’s note about them', async () => {
    const notes = await t.db
      .selectFrom('logBookRecords')
      .select(['userId'])
      .where('studentId', '=', learner)
      .execute();
    expect(notes.filter((n) => n.userId === learner).length).toBeGreaterThanOrEqual(2);
    expect(notes.some((n) => n.userId === stableId(tenant.alias, 'user', 'teacher'))).toBe(true);
  });

  it('has an XP that changed since the badge period began', async () => {
    const ctx = await t.db
      .selectFrom('contexts')
      .select('settings')
      .where('alias', '=', tenant.alias)
      .executeTakeFirstOrThrow();
    const days = parseJson<{ badges: { xpPeriodDays: number } }>(ctx.settings, {
      badges: { xpPeriodDays: 7 },
    }).badges.xpPeriodDays;
    const user = await t.db
      .selectFrom('users')
      .select('scoring')
      .where('id', '=', learner)
      .executeTakeFirstOrThrow();
    const xp = parseJson<{ xp: number }>(user.scoring, { xp: 0 }).xp;
    const before = await t.db
      .selectFrom('records')
      .select('scoring')
      .where('userId', '=', learner)
      .where('date', '<', new Date(NOW.getTime() - days * DAY).toISOString())
      .orderBy('date', 'desc')
      .executeTakeFirstOrThrow();
    expect(xp).toBeGreaterThan(parseJson<{ xp: number }>(before.scoring, { xp: 0 }).xp);
  });
});
