/**
 * Learner statistics (docs/product.md §2 dashboard "Stats", §9 period presets, week starts Monday, duration
 * units 'h', 'min', 'sec'). Pure rules shared by the API (bucket bounds for its SQL) and the web
 * app (labels, durations).
 *
 * Time zone decision: buckets follow the learner's local calendar, named by the IANA zone the
 * browser reports (`Intl.DateTimeFormat().resolvedOptions().timeZone`), so a page done at 23:30 in
 * Paris counts on that Paris day, and daylight-saving changes move the UTC bounds with them.
 * Without a zone the calendar is UTC. The server turns each local bound into a UTC instant, and
 * SQL compares stored UTC ISO timestamps with those instants.
 */

import { STATISTICS_PERIODS } from './contract/dashboard';
import type { BucketUnit, StatisticsPeriod } from './contract/dashboard';

/** Period presets in the order of docs/product.md §9; the first one is the default. */
export { STATISTICS_PERIODS };
export type {
  BucketUnit,
  StatisticsAttributes,
  StatisticsBucketAttributes,
  StatisticsPeriod,
} from './contract/dashboard';
export const DEFAULT_STATISTICS_PERIOD: StatisticsPeriod = STATISTICS_PERIODS[0];

/** 1 week = 7 days, 1 month = 30 days, 3 months = 12 Monday-weeks, 6 months and 1 year = calendar months. */
export const PERIOD_PRESETS: Record<StatisticsPeriod, { unit: BucketUnit; count: number }> = {
  '1w': { unit: 'day', count: 7 },
  '1m': { unit: 'day', count: 30 },
  '3m': { unit: 'week', count: 12 },
  '6m': { unit: 'month', count: 6 },
  '1y': { unit: 'month', count: 12 },
};

export function isStatisticsPeriod(value: unknown): value is StatisticsPeriod {
  return typeof value === 'string' && (STATISTICS_PERIODS as readonly string[]).includes(value);
}

/** A calendar date without a zone: year, month 1–12, day 1–31. */
export interface CivilDate {
  y: number;
  m: number;
  d: number;
}

/** 'YYYY-MM-DD'. */
export function civilKey(c: CivilDate): string {
  return `${String(c.y).padStart(4, '0')}-${String(c.m).padStart(2, '0')}-${String(c.d).padStart(2, '0')}`;
}

// Civil arithmetic through UTC milliseconds: no zone, no daylight saving, correct month lengths.
function fromUtcMs(ms: number): CivilDate {
  const t = new Date(ms);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}
function toUtcMs(c: CivilDate): number {
  return Date.UTC(c.y, c.m - 1, c.d);
}
export function addDays(c: CivilDate, days: number): CivilDate {
  return fromUtcMs(toUtcMs(c) + days * 86_400_000);
}
export function addMonths(c: CivilDate, months: number): CivilDate {
  const index = c.y * 12 + (c.m - 1) + months;
  return { y: Math.floor(index / 12), m: (index % 12) + 1, d: 1 };
}
/** The Monday on or before `c` (docs/product.md §9: weeks start on Monday). */
export function mondayOf(c: CivilDate): CivilDate {
  const weekday = new Date(toUtcMs(c)).getUTCDay(); // 0 = Sunday
  return addDays(c, -((weekday + 6) % 7));
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True for a zone name this runtime knows ('UTC', 'Europe/Paris', …). */
export function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  try {
    formatterOf(value);
    return true;
  } catch {
    return false;
  }
}

function wallClock(ms: number, timeZone: string): { civil: CivilDate; msOfDay: number } {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(timeZone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const civil = { y: parts.year ?? 1970, m: parts.month ?? 1, d: parts.day ?? 1 };
  const msOfDay = (((parts.hour ?? 0) * 60 + (parts.minute ?? 0)) * 60 + (parts.second ?? 0)) * 1000;
  return { civil, msOfDay };
}

/** The offset of `timeZone` from UTC at an instant, in milliseconds (Paris in winter: +3 600 000). */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const { civil, msOfDay } = wallClock(ms, timeZone);
  const wholeSeconds = Math.floor(ms / 1000) * 1000;
  return toUtcMs(civil) + msOfDay - wholeSeconds;
}

/** The local calendar date of an instant in `timeZone`. */
export function civilDateAt(ms: number, timeZone: string): CivilDate {
  return wallClock(ms, timeZone).civil;
}

/**
 * The UTC instant at which local day `c` starts in `timeZone`. Where a daylight-saving jump skips
 * midnight, the day starts at the first instant that exists.
 */
export function startOfDayUtc(c: CivilDate, timeZone: string): number {
  const guess = toUtcMs(c);
  let t = guess - zoneOffsetMs(guess, timeZone);
  const second = guess - zoneOffsetMs(t, timeZone);
  if (second !== t) t = Math.min(t, second);
  // A skipped midnight: t lands on the previous day; move to the new day's first instant.
  while (civilKey(civilDateAt(t, timeZone)) < civilKey(c)) t += 15 * 60_000;
  return t;
}

export interface StatisticsBucket {
  /** First local day of the bucket, 'YYYY-MM-DD' (a Monday for weeks, the 1st for months). */
  key: string;
  unit: BucketUnit;
  /** UTC instants (ISO) of the bucket's local start, inclusive, and end, exclusive. */
  from: string;
  to: string;
}

/**
 * The buckets of a period, oldest first, the last one holding `now`: 7 or 30 local days,
 * 12 Monday-weeks, or 6 or 12 calendar months (the current one partly elapsed).
 */
export function periodBuckets(period: StatisticsPeriod, now: Date, timeZone = 'UTC'): StatisticsBucket[] {
  const { unit, count } = PERIOD_PRESETS[period];
  const today = civilDateAt(now.getTime(), timeZone);
  const starts: CivilDate[] = [];
  if (unit === 'day') {
    for (let i = count - 1; i >= -1; i--) starts.push(addDays(today, -i));
  } else if (unit === 'week') {
    const monday = mondayOf(today);
    for (let i = count - 1; i >= -1; i--) starts.push(addDays(monday, -7 * i));
  } else {
    for (let i = count - 1; i >= -1; i--) starts.push(addMonths(today, -i));
  }
  const bounds = starts.map((c) => new Date(startOfDayUtc(c, timeZone)).toISOString());
  return starts
    .slice(0, -1)
    .map((c, i) => ({ key: civilKey(c), unit, from: bounds[i] as string, to: bounds[i + 1] as string }));
}

/**
 * docs/product.md §9 duration units 'h', 'min', 'sec': the two largest non-zero units ("1 h 5 min",
 * "2 min 30 sec", "45 sec"); zero or less is "0 sec".
 */
export function formatDuration(totalSeconds: number): string {
  const s = Number.isFinite(totalSeconds) ? Math.max(0, Math.round(totalSeconds)) : 0;
  const units: [number, string][] = [
    [Math.floor(s / 3600), 'h'],
    [Math.floor((s % 3600) / 60), 'min'],
    [s % 60, 'sec'],
  ];
  const first = units.findIndex(([n]) => n > 0);
  if (first === -1) return '0 sec';
  return units
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}`)
    .join(' ');
}

/**
 * Progression of a bucket: the share of the points at stake on the pages done then that the
 * learner earned, floor(100 × earned / possible) as docs/product.md §4's score percent; null when no page of
 * the bucket carried points (nothing to show rather than a misleading 0 %).
 */
export function progressionPercent(earned: number, possible: number): number | null {
  if (!(possible > 0) || !Number.isFinite(earned)) return null;
  return Math.max(0, Math.min(100, Math.floor((100 * earned) / possible)));
}
