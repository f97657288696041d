import { periodBuckets, progressionPercent } from '@parcours/domain/statistics';
import type { StatisticsPeriod } from '@parcours/domain/statistics';
import type { Db } from '../../db/db';
import { sumAnsweredPages } from './repository';

export interface StatisticsBucketAttributes {
  /** First local day of the bucket, 'YYYY-MM-DD'. */
  key: string;
  unit: 'day' | 'week' | 'month';
  from: string;
  to: string;
  /** Activité: pages done (COMPLETED, not archived). */
  pagesDone: number;
  /** Temps: seconds spent on the pages answered in the bucket. */
  timeSpent: number;
  scoreActual: number;
  scoreMax: number;
  /** Progression: floor(100 × points earned / points possible), null without points at stake. */
  progression: number | null;
}

export interface StatisticsAttributes {
  userId: string;
  period: StatisticsPeriod;
  timeZone: string;
  from: string;
  to: string;
  /** 'grains': pages done over the period. */
  grains: number;
  /** Seconds spent over the period. */
  timeSpent: number;
  buckets: StatisticsBucketAttributes[];
}

export async function learnerStatistics(
  db: Db,
  contextId: string,
  userId: string,
  period: StatisticsPeriod,
  timeZone: string,
  now: Date,
): Promise<StatisticsAttributes> {
  const buckets = periodBuckets(period, now, timeZone);
  const sums = new Map((await sumAnsweredPages(db, contextId, userId, buckets)).map((s) => [s.bucket, s]));
  const out = buckets.map((b, i): StatisticsBucketAttributes => {
    const s = sums.get(i);
    const scoreActual = s?.scoreActual ?? 0;
    const scoreMax = s?.scoreMax ?? 0;
    return {
      key: b.key,
      unit: b.unit,
      from: b.from,
      to: b.to,
      pagesDone: s?.pagesDone ?? 0,
      timeSpent: s?.timeSpent ?? 0,
      scoreActual,
      scoreMax,
      progression: progressionPercent(scoreActual, scoreMax),
    };
  });
  return {
    userId,
    period,
    timeZone,
    from: buckets[0]?.from ?? now.toISOString(),
    to: buckets.at(-1)?.to ?? now.toISOString(),
    grains: out.reduce((n, b) => n + b.pagesDone, 0),
    timeSpent: out.reduce((n, b) => n + b.timeSpent, 0),
    buckets: out,
  };
}
