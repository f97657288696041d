import { periodBuckets, progressionPercent } from '@parcours/domain/statistics';
import type {
  StatisticsAttributes,
  StatisticsBucket,
  StatisticsBucketAttributes,
  StatisticsPeriod,
} from '@parcours/domain/statistics';
import type { Db } from '../../db/db';
import { sumAnsweredPages } from './repository';

/**
 * Bucket bounds per period and zone, reused while `now` stays inside the last bucket: they change
 * only when a new local day (week, month) starts. Working them out takes dozens of time-zone
 * conversions (about 1–2.5 ms for a period), more than the SQL; a hit costs none.
 */
const boundsCache = new Map<string, { buckets: StatisticsBucket[]; from: number; to: number }>();
const BOUNDS_CACHE_MAX = 500;

export function cachedPeriodBuckets(
  period: StatisticsPeriod,
  timeZone: string,
  now: Date,
): StatisticsBucket[] {
  const key = `${period}|${timeZone}`;
  const t = now.getTime();
  const hit = boundsCache.get(key);
  if (hit && hit.from <= t && t < hit.to) return hit.buckets;
  const buckets = periodBuckets(period, now, timeZone);
  const last = buckets.at(-1);
  if (last) {
    if (boundsCache.size >= BOUNDS_CACHE_MAX) boundsCache.clear();
    boundsCache.set(key, { buckets, from: Date.parse(last.from), to: Date.parse(last.to) });
  }
  return buckets;
}

export async function learnerStatistics(
  db: Db,
  contextId: string,
  userId: string,
  period: StatisticsPeriod,
  timeZone: string,
  now: Date,
): Promise<StatisticsAttributes> {
  const buckets = cachedPeriodBuckets(period, timeZone, now);
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
