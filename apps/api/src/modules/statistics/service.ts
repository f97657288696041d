import { periodBuckets, progressionPercent } from '@parcours/domain/statistics';
import type {
  StatisticsAttributes,
  StatisticsBucketAttributes,
  StatisticsPeriod,
} from '@parcours/domain/statistics';
import type { Db } from '../../db/db';
import { sumAnsweredPages } from './repository';

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
