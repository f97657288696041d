import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import type { StatisticsAttributes } from '@parcours/domain/statistics';
import { get, login, testEnv } from '../helpers/app';
import type { ErrorDoc } from '../helpers/app';
import { hosts, ids, seedWorld } from '../helpers/fixtures';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';

/**
 * GET /api/statistics on pages answered at known instants, with the clock fixed on Monday
 * 2026-11-23 12:00 UTC. Dates sit on bucket edges on purpose (period start, UTC vs Paris midnight,
 * year end) so that an off-by-one in the bounds or the zone shows.
 */
const NOW = new Date('2026-11-23T12:00:00.000Z');
let tdb: TestDb;
let app: FastifyInstance;
let filesDir: string;
let anna: string;
let bob: string;

interface PageSpec {
  lessonId: string;
  answeredAt: string | null;
  state?: 'ACTIVE' | 'ARCHIVED';
  progress?: 'COMPLETED' | 'ONGOING';
  actual?: number;
  max?: number;
  time: number;
}

const A = ids.lessonA1;
const PAGES: PageSpec[] = [
  { lessonId: A, answeredAt: '2026-11-23T08:00:00.000Z', actual: 3, max: 4, time: 60 },
  // Sunday in UTC, Monday 00:30 in Paris.
  { lessonId: A, answeredAt: '2026-11-22T23:30:00.000Z', actual: 1, max: 1, time: 30 },
  // The first instant of the week period in UTC.
  { lessonId: A, answeredAt: '2026-11-17T00:00:00.000Z', actual: 0, max: 2, time: 10 },
  // The last instant before it (inside it in Paris).
  { lessonId: A, answeredAt: '2026-11-16T23:59:59.999Z', time: 5 },
  // An archived attempt: its time counts, the page and its points do not.
  { lessonId: A, answeredAt: '2026-11-23T07:00:00.000Z', state: 'ARCHIVED', actual: 0, max: 4, time: 40 },
  // Opened, never answered: nowhere.
  { lessonId: A, answeredAt: null, progress: 'ONGOING', time: 100 },
  // New Year's Eve 23:00 UTC is 1 January in Paris.
  { lessonId: A, answeredAt: '2025-12-31T23:00:00.000Z', actual: 1, max: 1, time: 7 },
  // Before the year period.
  { lessonId: A, answeredAt: '2025-11-30T12:00:00.000Z', actual: 1, max: 1, time: 9 },
  // Another lesson of the same learner.
  { lessonId: ids.lessonA2, answeredAt: '2026-11-20T10:00:00.000Z', actual: 2, max: 2, time: 20 },
  // Other learners, same days: never counted for Anna.
  { lessonId: ids.lessonB1, answeredAt: '2026-11-23T09:00:00.000Z', actual: 5, max: 5, time: 1000 },
  { lessonId: ids.lessonBeta, answeredAt: '2026-11-23T09:00:00.000Z', actual: 5, max: 5, time: 2000 },
];

beforeAll(async () => {
  tdb = await createTestDb();
  filesDir = (await seedWorld(tdb.db)).filesDir;
  const ts = { createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
  // Pages need distinct nodes (one live page per lesson and node).
  await tdb.db
    .insertInto('courseNodes')
    .values(
      PAGES.map((_, i) => ({
        id: `st-node-${i}`,
        courseId: ids.coursePub,
        parentId: ids.node.s1,
        type: 'block',
        blockId: null,
        order: 100 + i,
        title: null,
      })),
    )
    .execute();
  await tdb.db
    .insertInto('lessonPages')
    .values(
      PAGES.map((p, i) => ({
        id: `st-page-${i}`,
        lessonId: p.lessonId,
        nodeId: `st-node-${i}`,
        sectionId: null,
        attempt: 1,
        state: p.state ?? 'ACTIVE',
        progress: p.progress ?? 'COMPLETED',
        scoreActual: p.actual ?? 0,
        scoreMax: p.max ?? 0,
        timeSpent: p.time,
        timeLimit: null,
        openedAt: p.answeredAt,
        answeredAt: p.answeredAt,
        ...ts,
      })),
    )
    .execute();
  app = await buildApp({
    env: testEnv(),
    db: tdb.db,
    dbKind: tdb.kind,
    filesDir,
    logger: false,
    now: () => NOW,
  });
  await app.ready();
  anna = await login(app, 'anna@example.test');
  bob = await login(app, 'bob@example.test');
});

afterAll(async () => {
  await app?.close();
  await tdb?.close();
  if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

async function stats(token: string, query: string, host = hosts.alpha): Promise<StatisticsAttributes> {
  const res = await get(app, `/api/statistics${query}`, token, host);
  expect(res.statusCode, res.body).toBe(200);
  const doc = res.json() as { data: { type: string; id: string; attributes: StatisticsAttributes } };
  expect(doc.data.type).toBe('statistics');
  return doc.data.attributes;
}

/** Non-empty buckets as [key, pagesDone, timeSpent, progression]. */
const active = (s: StatisticsAttributes) =>
  s.buckets
    .filter((b) => b.pagesDone > 0 || b.timeSpent > 0)
    .map((b) => [b.key, b.pagesDone, b.timeSpent, b.progression]);

describe('GET /api/statistics: buckets', () => {
  it.each<[string, string, number, number, (string | number | null)[][]]>([
    // [query, first bucket, grains, time, non-empty buckets]
    [
      '',
      '2026-11-17',
      4,
      160,
      [
        ['2026-11-17', 1, 10, 0],
        ['2026-11-20', 1, 20, 100],
        ['2026-11-22', 1, 30, 100],
        ['2026-11-23', 1, 100, 75],
      ],
    ],
    [
      '?filter[period]=1w&filter[tz]=Europe/Paris',
      '2026-11-17',
      5,
      165,
      [
        ['2026-11-17', 2, 15, 0],
        ['2026-11-20', 1, 20, 100],
        ['2026-11-23', 2, 130, 80],
      ],
    ],
    [
      '?filter[period]=1m',
      '2026-10-25',
      5,
      165,
      [
        ['2026-11-16', 1, 5, null],
        ['2026-11-17', 1, 10, 0],
        ['2026-11-20', 1, 20, 100],
        ['2026-11-22', 1, 30, 100],
        ['2026-11-23', 1, 100, 75],
      ],
    ],
    [
      '?filter[period]=3m',
      '2026-09-07',
      5,
      165,
      [
        ['2026-11-16', 4, 65, 60],
        ['2026-11-23', 1, 100, 75],
      ],
    ],
    [
      '?filter[period]=1y',
      '2025-12-01',
      6,
      172,
      [
        ['2025-12-01', 1, 7, 100],
        ['2026-11-01', 5, 165, 66],
      ],
    ],
    [
      '?filter[period]=1y&filter[tz]=Europe/Paris',
      '2025-12-01',
      6,
      172,
      [
        ['2026-01-01', 1, 7, 100],
        ['2026-11-01', 5, 165, 66],
      ],
    ],
  ])('%s', async (query, first, grains, time, buckets) => {
    const s = await stats(anna, query);
    expect(s.buckets[0]?.key).toBe(first);
    expect(s.grains).toBe(grains);
    expect(s.timeSpent).toBe(time);
    expect(active(s)).toEqual(buckets);
  });

  it('has one bucket per unit of the preset, the default being one week of days in UTC', async () => {
    const s = await stats(anna, '');
    expect(s.period).toBe('1w');
    expect(s.timeZone).toBe('UTC');
    expect(s.buckets.map((b) => b.unit)).toEqual(Array(7).fill('day'));
    expect((await stats(anna, '?filter[period]=6m')).buckets).toHaveLength(6);
    // Three months: 12 Monday-weeks (an empty list would have passed the `every` this replaces).
    expect((await stats(anna, '?filter[period]=3m')).buckets.map((b) => b.unit)).toEqual(
      Array(12).fill('week'),
    );
  });

  it("counts only the learner's own pages, in their tenant", async () => {
    const b = await stats(bob, '?filter[userId]=me');
    expect(b.grains).toBe(1);
    expect(b.timeSpent).toBe(1000);
    const beta = await stats(await login(app, 'anna@example.test', hosts.beta), '', hosts.beta);
    expect(beta.grains).toBe(1);
    expect(beta.timeSpent).toBe(2000);
  });

  it('is all zeros for a learner without activity', async () => {
    const s = await stats(await login(app, 'teacher@example.test'), '?filter[period]=1y');
    expect(s.grains).toBe(0);
    expect(s.timeSpent).toBe(0);
    // A year of months, each one empty (an empty list would pass `every`).
    expect(s.buckets).toHaveLength(12);
    for (const bucket of s.buckets)
      expect(bucket).toMatchObject({ pagesDone: 0, timeSpent: 0, progression: null });
  });
});

describe('GET /api/statistics: access and validation', () => {
  const error = (res: { json(): unknown }) => (res.json() as ErrorDoc).errors[0];

  it('401 without a token', async () => {
    expect((await get(app, '/api/statistics')).statusCode).toBe(401);
  });

  it('403 for anyone else, administrators included', async () => {
    const res = await get(app, `/api/statistics?filter[userId]=${ids.learnerB}`, anna);
    expect(res.statusCode).toBe(403);
    expect(error(res)?.code).toBe('Forbidden');
    const admin = await login(app, 'admin@example.test');
    expect((await get(app, `/api/statistics?filter[userId]=${ids.learnerA}`, admin)).statusCode).toBe(403);
  });

  it('accepts its own id', async () => {
    expect((await stats(anna, `?filter[userId]=${ids.learnerA}`)).grains).toBe(4);
  });

  it.each([
    ['?filter[period]=2w', 'filter[period]'],
    ['?filter[period]=', 'filter[period]'],
    ['?filter[tz]=Mars/Olympus', 'filter[tz]'],
    ['?filter[since]=2026-01-01', 'filter[since]'],
  ])('400 VALIDATION_ERROR for %s', async (query, parameter) => {
    const res = await get(app, `/api/statistics${query}`, anna);
    expect(res.statusCode).toBe(400);
    expect(error(res)?.code).toBe('VALIDATION_ERROR');
    expect(error(res)?.source?.parameter).toBe(parameter);
  });
});

describe('bucket bounds cache', () => {
  it('reuses the bounds within the last bucket and works them out again after it', async () => {
    const { cachedPeriodBuckets } = await import('../../src/modules/statistics/service');
    const { periodBuckets } = await import('@parcours/domain/statistics');
    const morning = cachedPeriodBuckets('1w', 'Europe/Paris', new Date('2026-11-23T07:00:00Z'));
    expect(cachedPeriodBuckets('1w', 'Europe/Paris', new Date('2026-11-23T22:59:59Z'))).toBe(morning);
    // Midnight in Paris: a new day, a new list.
    const next = cachedPeriodBuckets('1w', 'Europe/Paris', new Date('2026-11-23T23:00:00Z'));
    expect(next).not.toBe(morning);
    expect(next).toEqual(periodBuckets('1w', new Date('2026-11-23T23:00:00Z'), 'Europe/Paris'));
    expect(next.at(-1)?.key).toBe('2026-11-24');
    // Going back in time (a test clock) is not served from the cache either.
    expect(cachedPeriodBuckets('1w', 'Europe/Paris', new Date('2026-11-20T12:00:00Z')).at(-1)?.key).toBe(
      '2026-11-20',
    );
  });
});
