import type { StatisticsBucketAttributes } from '@parcours/domain/statistics';
import { describe, expect, it } from 'vitest';
import { bucketLabel, chartModels, isEmpty } from './chart-data';

const b = (
  pagesDone: number,
  timeSpent: number,
  scoreActual: number,
  scoreMax: number,
): StatisticsBucketAttributes => ({
  key: '2026-11-23',
  unit: 'day',
  from: '',
  to: '',
  pagesDone,
  timeSpent,
  scoreActual,
  scoreMax,
  progression: scoreMax > 0 ? Math.floor((100 * scoreActual) / scoreMax) : null,
});

describe('chartModels', () => {
  const [activity, progression, time] = chartModels([
    b(2, 90, 0, 0),
    b(0, 0, 0, 0),
    b(3, 600, 3, 4),
    b(1, 30, 0, 4),
  ]);
  it.each([
    ['activity', activity?.series[0]?.values, [2, 0, 3, 1]],
    ['progression per bucket', progression?.series[0]?.values, [null, null, 75, 0]],
    // Running share: nothing at stake, still nothing, 3/4, 3/8.
    ['cumulative progression', progression?.series[1]?.values, [null, null, 75, 37]],
    ['minutes, one decimal', time?.series[0]?.values, [1.5, 0, 10, 0.5]],
  ])('%s', (_name, values, expected) => {
    expect(values).toEqual(expected);
  });
  it('fixes the percentage axis at 100', () => {
    expect(progression?.yMax).toBe(100);
    expect(activity?.yMax).toBeNull();
  });
});

describe.each<[string, 'day' | 'week' | 'month', 'fr' | 'en', boolean, string]>([
  ['2026-11-23', 'day', 'fr', false, '23 nov.'],
  ['2026-11-23', 'day', 'en', true, 'Monday, November 23, 2026'],
  ['2026-11-01', 'month', 'fr', false, 'nov. 2026'],
  ['2027-01-01', 'month', 'en', true, 'January 2027'],
  ['2026-12-28', 'week', 'fr', false, '28 déc.'],
])('bucketLabel(%s, %s, %s, long %s)', (key, unit, locale, long, text) => {
  it(text, () => expect(bucketLabel(key, unit, locale, long)).toBe(text));
});

describe('isEmpty', () => {
  it.each([
    [[b(0, 0, 0, 0), b(0, 0, 0, 0)], true],
    [[b(0, 5, 0, 0)], false],
    [[b(1, 0, 0, 0)], false],
    [[], true],
  ])('%#', (buckets, empty) => expect(isEmpty(buckets)).toBe(empty));
});
