import { z } from 'zod';

/**
 * Time accommodation (RGAA 13.1, decision 0019): a learner may get more time, or no limit at
 * all, on every timed page and lesson of one enrolment. The content keeps its own limits; the
 * server applies the learner's accommodation each time it decides or sends a limit.
 */

/** The smallest and largest factor a teacher or the content may set (×1 is no accommodation). */
export const MIN_TIME_FACTOR = 1;
export const MAX_TIME_FACTOR = 4;

export interface TimeAccommodation {
  /** Multiplies every limit; null means ×1. */
  factor: number | null;
  /** No limit at all: timed pages and lessons never expire for this learner. */
  unlimited: boolean;
}

export const NO_ACCOMMODATION: TimeAccommodation = { factor: null, unlimited: false };

/**
 * The limit this learner gets, in whole seconds: rounded up, so an accommodation never takes a
 * second away. Null when there is no limit (none in the content, or the learner has none).
 */
export function accommodatedLimit(
  limitSeconds: number | null | undefined,
  accommodation: TimeAccommodation = NO_ACCOMMODATION,
): number | null {
  if (limitSeconds == null || !Number.isFinite(limitSeconds) || limitSeconds <= 0) return null;
  if (accommodation.unlimited) return null;
  const factor = accommodation.factor ?? 1;
  // A stored factor outside the range (hand-edited data) is clamped, never shortens a limit.
  const safe = Number.isFinite(factor) ? Math.min(MAX_TIME_FACTOR, Math.max(MIN_TIME_FACTOR, factor)) : 1;
  // Rounded to the millisecond first: 0.1-steps are not exact in binary (60 × 1.1 = 66.000…01).
  return Math.ceil(Math.round(limitSeconds * safe * 1000) / 1000);
}

/**
 * What a teacher sets (the form and the route use this one schema): a factor in [1, 4] with at
 * most two decimals, or no limit. `timeFactor: null` with `noTimeLimit: false` removes the
 * accommodation.
 */
export const timeAccommodationSchema = z
  .strictObject({
    timeFactor: z.number().min(MIN_TIME_FACTOR).max(MAX_TIME_FACTOR).multipleOf(0.01).nullable(),
    noTimeLimit: z.boolean(),
  })
  .refine((v) => !(v.noTimeLimit && v.timeFactor !== null && v.timeFactor !== 1), {
    message: 'Choose a factor or no limit, not both.',
    path: ['timeFactor'],
  });
export type TimeAccommodationInput = z.infer<typeof timeAccommodationSchema>;

/** The stored columns (`class_users.time_factor`, `no_time_limit`) as the rule takes them. */
export function accommodationOf(row: {
  timeFactor?: number | null | undefined;
  noTimeLimit?: number | boolean | null | undefined;
}): TimeAccommodation {
  return { factor: row.timeFactor ?? null, unlimited: Boolean(row.noTimeLimit) };
}

/**
 * The most generous of several accommodations (decision 0019, node mode): no limit beats any
 * factor, else the largest factor (clamped like `accommodatedLimit`), none → no accommodation.
 * Node mode grades nothing and a node may be reached through several enrolments, so the learner
 * gets the most time any of them gives rather than a guess at which one applies.
 */
export function mostGenerousAccommodation(all: readonly TimeAccommodation[]): TimeAccommodation {
  if (all.some((a) => a.unlimited)) return { factor: null, unlimited: true };
  let best = MIN_TIME_FACTOR;
  for (const { factor } of all) {
    if (factor != null && Number.isFinite(factor)) best = Math.max(best, Math.min(MAX_TIME_FACTOR, factor));
  }
  return best > MIN_TIME_FACTOR ? { factor: best, unlimited: false } : { ...NO_ACCOMMODATION };
}
