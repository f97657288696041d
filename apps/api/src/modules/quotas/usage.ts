import { sql } from 'kysely';
import { ApiError } from '../../plugins/errors';
import type { Tx } from '../../db/tx';

/**
 * Counting against a quota (migration 0021). Each charge adds to one row with a conditional
 * upsert: the row moves only while the sum stays within the limit, else nothing changes and the
 * request is refused. The database decides, so two processes (or two requests in one SQLite
 * group commit) can never both pass the last unit: a flood is refused before the limit, never
 * after it. Charges run in the caller's transaction: when a later charge (the tenant's) or the
 * write itself fails, the earlier ones roll back with it.
 */
export type Period = 'minute' | 'hour' | 'day' | 'total';

export interface Charge {
  /** A user id, `tenant`, or `launch:<key>`. */
  subject: string;
  kind: string;
  period: Period;
  amount: number;
  limit: number;
  /** The catalogue key the web shows (apps/web locales, `quota.*`). */
  detail: string;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * 60 * MINUTE_MS;

function periodStart(period: Period, now: Date): { key: string; endsAt: number | null } {
  if (period === 'total') return { key: 'total', endsAt: null };
  const size = period === 'minute' ? MINUTE_MS : period === 'hour' ? HOUR_MS : DAY_MS;
  const start = Math.floor(now.getTime() / size) * size;
  return { key: new Date(start).toISOString(), endsAt: start + size };
}

/** A refusal: 429 with Retry-After for a rate (until its period ends), 413 for a stored total. */
export function quotaRefusal(c: Pick<Charge, 'period' | 'detail'>, now: Date): ApiError {
  const { endsAt } = periodStart(c.period, now);
  if (endsAt === null) return new ApiError(413, 'TOO_MANY_REQUESTS', c.detail);
  const error = new ApiError(429, 'TOO_MANY_REQUESTS', c.detail);
  error.retryAfter = Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000));
  return error;
}

/**
 * Adds each charge to its row; returns the rows' new amounts in order. A charge whose limit is
 * `Infinity` is only counted (a tenant's figure, which alarms instead of refusing: budget.ts).
 */
export async function charge(trx: Tx, contextId: string, charges: Charge[], now: Date): Promise<number[]> {
  const iso = now.toISOString();
  const amounts: number[] = [];
  for (const c of charges) {
    if (c.amount <= 0) continue;
    if (c.amount > c.limit) throw quotaRefusal(c, now);
    const period = periodStart(c.period, now).key;
    const bounded = Number.isFinite(c.limit);
    const row = await trx
      .insertInto('quotaUsage')
      .values({ contextId, subject: c.subject, kind: c.kind, period, amount: c.amount, updatedAt: iso })
      .onConflict((oc) => {
        const update = oc
          .columns(['contextId', 'subject', 'kind', 'period'])
          .doUpdateSet({ amount: sql`quota_usage.amount + excluded.amount`, updatedAt: iso });
        return bounded ? update.where(sql`quota_usage.amount + excluded.amount`, '<=', c.limit) : update;
      })
      .returning('amount')
      .executeTakeFirst();
    if (!row) throw quotaRefusal(c, now);
    amounts.push(Number(row.amount));
  }
  return amounts;
}

/** Rows of periods that ended (rates) or of launches long expired: the janitor removes them. */
export async function purgeQuotaUsage(trx: Tx, now: Date, launchTtlMs: number): Promise<number> {
  const dayAgo = new Date(now.getTime() - DAY_MS - MINUTE_MS).toISOString();
  const ended = await trx
    .deleteFrom('quotaUsage')
    .where('period', '<>', 'total')
    .where('updatedAt', '<', dayAgo)
    .executeTakeFirst();
  const launches = await trx
    .deleteFrom('quotaUsage')
    .where('subject', 'like', 'launch:%')
    .where('updatedAt', '<', new Date(now.getTime() - launchTtlMs - DAY_MS).toISOString())
    .executeTakeFirst();
  return Number(ended.numDeletedRows) + Number(launches.numDeletedRows);
}
