import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STATISTICS_PERIOD,
  PERIOD_PRESETS,
  STATISTICS_PERIODS,
  formatDuration,
  isStatisticsPeriod,
  isTimeZone,
  mondayOf,
  periodBuckets,
  progressionPercent,
  startOfDayUtc,
  zoneOffsetMs,
} from './statistics';
import type { StatisticsPeriod } from './statistics';

describe('period presets (SPEC §9)', () => {
  it('lists 1 week, 1 month, 3 months, 6 months, 1 year, the first being the default', () => {
    expect(STATISTICS_PERIODS).toEqual(['1w', '1m', '3m', '6m', '1y']);
    expect(DEFAULT_STATISTICS_PERIOD).toBe('1w');
  });

  it.each<[StatisticsPeriod, string, number]>([
    ['1w', 'day', 7],
    ['1m', 'day', 30],
    ['3m', 'week', 12],
    ['6m', 'month', 6],
    ['1y', 'month', 12],
  ])('%s is %s × %i', (period, unit, count) => {
    expect(PERIOD_PRESETS[period]).toEqual({ unit, count });
    expect(periodBuckets(period, new Date('2026-11-23T12:00:00Z'))).toHaveLength(count);
  });

  it.each([
    ['1w', true],
    ['1y', true],
    ['2w', false],
    ['', false],
    [7, false],
    [null, false],
  ])('isStatisticsPeriod(%j) is %s', (value, ok) => {
    expect(isStatisticsPeriod(value)).toBe(ok);
  });
});

describe('Monday weeks', () => {
  it.each([
    ['2026-11-23', '2026-11-23'], // a Monday
    ['2026-11-29', '2026-11-23'], // Sunday belongs to the week before it
    ['2026-11-24', '2026-11-23'],
    ['2027-01-01', '2026-12-28'], // across a year end
    ['2026-03-01', '2026-02-23'], // across a month end
    ['2024-03-03', '2024-02-26'], // leap February
  ])('the week of %s starts on %s', (day, monday) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    const out = mondayOf({ y, m, d });
    expect(`${out.y}-${String(out.m).padStart(2, '0')}-${String(out.d).padStart(2, '0')}`).toBe(monday);
  });
});

// [period, now, zone, first key, last key, first `from`, last `to`]
const BUCKET_CASES: [StatisticsPeriod, string, string, string, string, string, string][] = [
  [
    '1w',
    '2026-11-23T12:00:00Z',
    'UTC',
    '2026-11-17',
    '2026-11-23',
    '2026-11-17T00:00:00.000Z',
    '2026-11-24T00:00:00.000Z',
  ],
  // Across a year end.
  [
    '1w',
    '2027-01-02T08:00:00Z',
    'UTC',
    '2026-12-27',
    '2027-01-02',
    '2026-12-27T00:00:00.000Z',
    '2027-01-03T00:00:00.000Z',
  ],
  // 30 days across a month end and February of a leap year.
  [
    '1m',
    '2024-03-10T12:00:00Z',
    'UTC',
    '2024-02-10',
    '2024-03-10',
    '2024-02-10T00:00:00.000Z',
    '2024-03-11T00:00:00.000Z',
  ],
  // 12 Monday-weeks, current week last, across a year end.
  [
    '3m',
    '2027-01-06T12:00:00Z',
    'UTC',
    '2026-10-19',
    '2027-01-04',
    '2026-10-19T00:00:00.000Z',
    '2027-01-11T00:00:00.000Z',
  ],
  // Calendar months across a year end.
  [
    '6m',
    '2027-02-15T12:00:00Z',
    'UTC',
    '2026-09-01',
    '2027-02-01',
    '2026-09-01T00:00:00.000Z',
    '2027-03-01T00:00:00.000Z',
  ],
  [
    '1y',
    '2026-12-31T23:59:59Z',
    'UTC',
    '2026-01-01',
    '2026-12-01',
    '2026-01-01T00:00:00.000Z',
    '2027-01-01T00:00:00.000Z',
  ],
  // Paris: 23:30 UTC on 31 December is already 1 January there; local midnights in UTC.
  [
    '1w',
    '2026-12-31T23:30:00Z',
    'Europe/Paris',
    '2026-12-26',
    '2027-01-01',
    '2026-12-25T23:00:00.000Z',
    '2027-01-01T23:00:00.000Z',
  ],
  // Paris summer time (+2) then winter (+1) within one year of months.
  [
    '1y',
    '2026-11-23T12:00:00Z',
    'Europe/Paris',
    '2025-12-01',
    '2026-11-01',
    '2025-11-30T23:00:00.000Z',
    '2026-11-30T23:00:00.000Z',
  ],
  // Montreal: behind UTC, the local day lags.
  [
    '1w',
    '2026-11-24T03:00:00Z',
    'America/Montreal',
    '2026-11-17',
    '2026-11-23',
    '2026-11-17T05:00:00.000Z',
    '2026-11-24T05:00:00.000Z',
  ],
  // Half-hour zone.
  [
    '1w',
    '2026-11-23T12:00:00Z',
    'Asia/Kolkata',
    '2026-11-17',
    '2026-11-23',
    '2026-11-16T18:30:00.000Z',
    '2026-11-23T18:30:00.000Z',
  ],
];

describe.each(BUCKET_CASES)(
  'periodBuckets(%s, %s, %s)',
  (period, now, zone, firstKey, lastKey, firstFrom, lastTo) => {
    const buckets = periodBuckets(period, new Date(now), zone);
    it('starts and ends on the expected local days', () => {
      expect(buckets[0]?.key).toBe(firstKey);
      expect(buckets.at(-1)?.key).toBe(lastKey);
    });
    it('has the expected UTC bounds', () => {
      expect(buckets[0]?.from).toBe(firstFrom);
      expect(buckets.at(-1)?.to).toBe(lastTo);
    });
    it('is contiguous and holds now in its last bucket', () => {
      for (let i = 1; i < buckets.length; i++) expect(buckets[i]?.from).toBe(buckets[i - 1]?.to);
      const last = buckets.at(-1);
      expect(last && last.from <= new Date(now).toISOString() && new Date(now).toISOString() < last.to).toBe(
        true,
      );
    });
  },
);

describe('week buckets start on Mondays and months on the 1st', () => {
  it.each(['2026-11-23T12:00:00Z', '2026-11-29T22:00:00Z', '2027-01-01T00:00:00Z'])('3m at %s', (now) => {
    for (const b of periodBuckets('3m', new Date(now), 'Europe/Paris')) {
      expect(new Date(`${b.key}T00:00:00Z`).getUTCDay()).toBe(1);
    }
  });
  it.each(['2026-11-23T12:00:00Z', '2027-01-01T00:00:00Z'])('1y at %s', (now) => {
    const keys = periodBuckets('1y', new Date(now)).map((b) => b.key);
    expect(keys.every((k) => k.endsWith('-01'))).toBe(true);
    expect(new Set(keys).size).toBe(12);
  });
});

describe('daylight saving', () => {
  it.each([
    ['2026-03-29', 'Europe/Paris', '2026-03-28T23:00:00.000Z'], // spring forward at 02:00: midnight still +1
    ['2026-03-30', 'Europe/Paris', '2026-03-29T22:00:00.000Z'],
    ['2026-10-25', 'Europe/Paris', '2026-10-24T22:00:00.000Z'],
    ['2026-10-26', 'Europe/Paris', '2026-10-25T23:00:00.000Z'],
    ['2026-06-01', 'UTC', '2026-06-01T00:00:00.000Z'],
  ])('%s starts at %s', (day, zone, iso) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    expect(new Date(startOfDayUtc({ y, m, d }, zone)).toISOString()).toBe(iso);
  });

  it('a day whose midnight does not exist starts at its first instant (Santiago, 2026-09-06)', () => {
    const t = startOfDayUtc({ y: 2026, m: 9, d: 6 }, 'America/Santiago');
    expect(new Date(t).toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });

  it('offsets', () => {
    expect(zoneOffsetMs(Date.parse('2026-01-15T12:00:00Z'), 'Europe/Paris')).toBe(3_600_000);
    expect(zoneOffsetMs(Date.parse('2026-07-15T12:00:00Z'), 'Europe/Paris')).toBe(7_200_000);
  });
});

describe.each([
  ['UTC', true],
  ['Europe/Paris', true],
  ['America/Montreal', true],
  ['Mars/Olympus', false],
  ['', false],
  ['x'.repeat(80), false],
])('isTimeZone(%s)', (zone, ok) => {
  it(`is ${ok}`, () => expect(isTimeZone(zone)).toBe(ok));
});

describe.each<[number, string]>([
  [0, '0 sec'],
  [-5, '0 sec'],
  [Number.NaN, '0 sec'],
  [1, '1 sec'],
  [59, '59 sec'],
  [60, '1 min'],
  [61, '1 min 1 sec'],
  [150, '2 min 30 sec'],
  [3600, '1 h'],
  [3661, '1 h 1 min'],
  [3605, '1 h'],
  [36_000 + 300, '10 h 5 min'],
  [100 * 3600, '100 h'],
  [59.6, '1 min'],
])('formatDuration(%d)', (seconds, text) => {
  it(`is "${text}"`, () => expect(formatDuration(seconds)).toBe(text));
});

describe.each<[number, number, number | null]>([
  [0, 0, null],
  [5, 0, null],
  [5, -1, null],
  [0, 10, 0],
  [5, 10, 50],
  [2, 3, 66],
  [10, 10, 100],
  [12, 10, 100],
  [-1, 10, 0],
])('progressionPercent(%d, %d)', (earned, possible, percent) => {
  it(`is ${String(percent)}`, () => expect(progressionPercent(earned, possible)).toBe(percent));
});
