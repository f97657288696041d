import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classesSchema } from '../../src/content/schemas/classes';
import { importFolder } from '../../src/content/importer';
import { stableId } from '../../src/lib/ids';
import type { TestDb } from './helpers';
import { DEMO, openTestDb } from './helpers';

/**
 * Time accommodation in content (decision 0019): an enrolment may state a factor or no limit;
 * one that states it gets it at every import, one that does not keeps what the teacher set.
 */
let t: TestDb;
const NOW = new Date('2026-03-10T08:00:00Z');

beforeAll(async () => {
  t = await openTestDb();
  const report = await importFolder(t.db, DEMO, { filesDir: t.filesDir, now: NOW });
  expect(report.errors).toEqual([]);
});
afterAll(async () => t.close());

const enrolment = (tenant: string, cls: string, user: string) =>
  t.db
    .selectFrom('classUsers')
    .select(['timeFactor', 'noTimeLimit'])
    .where('classId', '=', stableId(tenant, 'class', cls))
    .where('userId', '=', stableId(tenant, 'user', user))
    .where('role', '=', 'STUDENT')
    .executeTakeFirstOrThrow();

describe('demo enrolments with a time accommodation', () => {
  it.each([
    ['fr', 'printemps-savoirs', 'hugo', { timeFactor: 1.5, noTimeLimit: 0 }],
    ['fr', 'printemps-savoirs', 'lea', { timeFactor: null, noTimeLimit: 0 }],
    ['en', 'spring-numeracy', 'jordan', { timeFactor: 1.5, noTimeLimit: 0 }],
    ['fr', 'printemps-savoirs', 'learner', { timeFactor: null, noTimeLimit: 0 }],
    ['en', 'spring-numeracy', 'learner', { timeFactor: null, noTimeLimit: 0 }],
  ])('%s %s %s', async (tenant, cls, user, expected) => {
    expect(await enrolment(tenant, cls, user)).toEqual(expected);
  });

  it('a re-import restores what content states and keeps what a teacher set elsewhere', async () => {
    const hugo = stableId('fr', 'user', 'hugo');
    const learner = stableId('fr', 'user', 'learner');
    const cls = stableId('fr', 'class', 'printemps-savoirs');
    for (const userId of [hugo, learner])
      await t.db
        .updateTable('classUsers')
        .set({ timeFactor: 3, noTimeLimit: 0 })
        .where('classId', '=', cls)
        .where('userId', '=', userId)
        .execute();
    const again = await importFolder(t.db, DEMO, { filesDir: t.filesDir, now: NOW });
    expect(again.errors).toEqual([]);
    expect(await enrolment('fr', 'printemps-savoirs', 'hugo')).toEqual({ timeFactor: 1.5, noTimeLimit: 0 });
    expect(await enrolment('fr', 'printemps-savoirs', 'learner')).toEqual({ timeFactor: 3, noTimeLimit: 0 });
  });
});

describe('the enrolment schema', () => {
  const classes = (user: Record<string, unknown>) => ({
    classes: [{ id: 'c', name: 'C', programs: [{ program: 'p' }], users: [{ user: 'u', ...user }] }],
  });
  it.each<[string, Record<string, unknown>, boolean]>([
    ['a STUDENT with ×1.5', { role: 'STUDENT', timeFactor: 1.5 }, true],
    ['a STUDENT with no limit', { role: 'STUDENT', noTimeLimit: true }, true],
    ['a STUDENT with neither', { role: 'STUDENT' }, true],
    ['a TEACHER with a factor', { role: 'TEACHER', timeFactor: 2 }, false],
    ['a factor and no limit', { role: 'STUDENT', timeFactor: 2, noTimeLimit: true }, false],
    ['a factor above 4', { role: 'STUDENT', timeFactor: 4.5 }, false],
    ['a factor below 1', { role: 'STUDENT', timeFactor: 0.75 }, false],
  ])('%s', (_label, user, ok) => {
    expect(classesSchema.safeParse(classes(user)).success).toBe(ok);
  });
});
