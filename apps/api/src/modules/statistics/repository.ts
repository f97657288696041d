import { sql } from 'kysely';
import type { StatisticsBucket } from '@parcours/domain/statistics';
import type { Db } from '../../db/db';

export interface BucketSums {
  /** Index of the bucket in the period's list. */
  bucket: number;
  pagesDone: number;
  timeSpent: number;
  scoreActual: number;
  scoreMax: number;
}

/**
 * One learner's answered pages between the period's bounds, summed per bucket by the database:
 * one row per bucket that has activity, whatever the history's length. The bucket of a page is
 * found by a CASE over the buckets' UTC bounds (at most 30), so local days, Monday weeks and
 * calendar months are all the same query on SQLite and PostgreSQL. Served by `lessons_user_idx`
 * and `lesson_pages_answered_idx` (migration 0006).
 *
 * What counts (docs/product.md §4 page progress): pages done are COMPLETED pages that are not ARCHIVED, dated
 * by their answer; their points make the progression. Time counts every answered page, archived
 * attempts included, because the learner spent it.
 */
export async function sumAnsweredPages(
  db: Db,
  contextId: string,
  userId: string,
  buckets: readonly StatisticsBucket[],
): Promise<BucketSums[]> {
  const first = buckets[0];
  const last = buckets.at(-1);
  if (!first || !last) return [];
  const answeredAt = sql.ref('lp.answeredAt');
  const whens = buckets.map((b, i) => sql`when ${answeredAt} < ${b.to} then ${sql.lit(i)}`);
  const bucketOf = sql<number>`case ${sql.join(whens, sql` `)} end`;
  const live = sql`${sql.ref('lp.state')} <> 'ARCHIVED'`;
  const rows = await db
    .selectFrom('lessonPages as lp')
    .innerJoin('lessons as l', 'l.id', 'lp.lessonId')
    .select([
      bucketOf.as('bucket'),
      sql<
        number | string
      >`sum(case when ${live} and ${sql.ref('lp.progress')} = 'COMPLETED' then 1 else 0 end)`.as('pagesDone'),
      sql<number | string>`sum(${sql.ref('lp.timeSpent')})`.as('timeSpent'),
      sql<number | string>`sum(case when ${live} then ${sql.ref('lp.scoreActual')} else 0 end)`.as(
        'scoreActual',
      ),
      sql<number | string>`sum(case when ${live} then ${sql.ref('lp.scoreMax')} else 0 end)`.as('scoreMax'),
    ])
    .where('l.userId', '=', userId)
    .where('l.contextId', '=', contextId)
    .where('lp.answeredAt', 'is not', null)
    .where('lp.answeredAt', '>=', first.from)
    .where('lp.answeredAt', '<', last.to)
    .groupBy(sql`1`)
    .execute();
  // PostgreSQL answers sums of integers as bigint strings.
  return rows.map((r) => ({
    bucket: Number(r.bucket),
    pagesDone: Number(r.pagesDone ?? 0),
    timeSpent: Number(r.timeSpent ?? 0),
    scoreActual: Number(r.scoreActual ?? 0),
    scoreMax: Number(r.scoreMax ?? 0),
  }));
}
