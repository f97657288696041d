import type { Locale } from '@parcours/domain/entities';
import type { BucketUnit, StatisticsBucketAttributes } from '@parcours/domain/statistics';
import { progressionPercent } from '@parcours/domain/statistics';

export type ChartId = 'activity' | 'progression' | 'time';
export type SeriesKind = 'bar' | 'line';

export interface ChartSeries {
  /** Stable id, also the translation key's last part (`statistics.series.<id>`). */
  id: string;
  kind: SeriesKind;
  values: (number | null)[];
}

export interface ChartModel {
  id: ChartId;
  series: ChartSeries[];
  /** Upper bound of the y axis when it is fixed (percentages); otherwise from the data. */
  yMax: number | null;
}

/**
 * The three charts of docs/product.md §2 "Stats" from the API's buckets:
 * - Activité: pages done per bucket;
 * - Progression: the share of points earned on the pages done in the bucket, beside the same
 *   share accumulated since the start of the period (the learner's trend);
 * - Temps: minutes spent per bucket (the tables say it with the §9 units).
 */
export function chartModels(buckets: readonly StatisticsBucketAttributes[]): ChartModel[] {
  let earned = 0;
  let possible = 0;
  const cumulative = buckets.map((b) => {
    earned += b.scoreActual;
    possible += b.scoreMax;
    return progressionPercent(earned, possible);
  });
  return [
    {
      id: 'activity',
      yMax: null,
      series: [{ id: 'pagesDone', kind: 'bar', values: buckets.map((b) => b.pagesDone) }],
    },
    {
      id: 'progression',
      yMax: 100,
      series: [
        { id: 'progression', kind: 'bar', values: buckets.map((b) => b.progression) },
        { id: 'cumulative', kind: 'line', values: cumulative },
      ],
    },
    {
      id: 'time',
      yMax: null,
      series: [{ id: 'minutes', kind: 'bar', values: buckets.map((b) => Math.round(b.timeSpent / 6) / 10) }],
    },
  ];
}

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(locale: Locale, unit: BucketUnit, long: boolean): Intl.DateTimeFormat {
  const key = `${locale}:${unit}:${long}`;
  let f = formats.get(key);
  if (!f) {
    // Bucket keys are local calendar dates: format them as UTC dates so no zone shifts the day.
    const options: Intl.DateTimeFormatOptions =
      unit === 'month'
        ? { month: long ? 'long' : 'short', year: 'numeric', timeZone: 'UTC' }
        : {
            day: 'numeric',
            month: long ? 'long' : 'short',
            timeZone: 'UTC',
            ...(long ? { weekday: 'long', year: 'numeric' } : {}),
          };
    f = new Intl.DateTimeFormat(locale, options);
    formats.set(key, f);
  }
  return f;
}

/**
 * A bucket's name: short for an axis ("23 nov.", "nov. 2026"), long for a table
 * ("lundi 23 novembre 2026"). Weeks are named by their Monday; the caller adds "week of".
 */
export function bucketLabel(key: string, unit: BucketUnit, locale: Locale, long = false): string {
  const date = new Date(`${key}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return key;
  return formatOf(locale, unit, long).format(date);
}

/** True when the period holds no activity at all (the tab then shows its empty state). */
export function isEmpty(buckets: readonly StatisticsBucketAttributes[]): boolean {
  return buckets.every((b) => b.pagesDone === 0 && b.timeSpent === 0);
}
