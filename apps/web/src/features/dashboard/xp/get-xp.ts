import type { RecordAttributes } from '@parcours/domain/contract/dashboard';
import { xpDelta, type DeltaSign } from '@parcours/domain/badges';
import type { Document, Resource } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { levelKeys } from '../levels/api/query-keys';

type RecordResource = Resource<'records', RecordAttributes>;

export interface Xp {
  xp: number;
  delta: number;
  start: number;
  sign: DeltaSign;
}

/** How far back the XP change looks unless the tenant says otherwise (`settings.badges.xpPeriodDays`). */
export const XP_DELTA_DAYS = 7;

/** The day (UTC, YYYY-MM-DD) the change is counted from: stable within a day, so it caches. */
export function xpSince(now: Date = new Date(), days: number = XP_DELTA_DAYS): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

async function lastRecord(
  userId: string,
  before: string | null,
  signal?: AbortSignal,
): Promise<RecordResource | null> {
  const doc = await apiFetch<Document<RecordResource[]>>('records', {
    query: {
      'filter[userId]': userId,
      sort: '-date',
      'page[size]': 1,
      ...(before ? { 'filter[before]': before } : {}),
    },
    signal,
  });
  return doc.data[0] ?? null;
}

/**
 * The learner's XP and its change since `before` (docs/product.md §7 `records`: by userId sorted -date,
 * limit 1, also before a date). The newest record is the current XP; the profile's value stands
 * in while the learner has none.
 */
export async function getXp(
  userId: string,
  before: string,
  profileXp: number,
  signal?: AbortSignal,
): Promise<Xp> {
  const [latest, past] = await Promise.all([
    lastRecord(userId, null, signal),
    lastRecord(userId, before, signal),
  ]);
  const xp = latest ? latest.attributes.scoring.xp : profileXp;
  return { xp, ...xpDelta(xp, past?.attributes.scoring.xp ?? null) };
}

export const xpQueryOptions = (userId: string, before: string, profileXp: number) =>
  queryOptions({
    queryKey: levelKeys.xp(userId, before),
    queryFn: ({ signal }) => getXp(userId, before, profileXp, signal),
    staleTime: 60_000,
  });

export function useXp(userId: string, profileXp: number, days: number = XP_DELTA_DAYS) {
  return useQuery(xpQueryOptions(userId, xpSince(new Date(), days), profileXp));
}
