import type { Document, Resource } from '@parcours/domain/entities';
import type { StatisticsAttributes, StatisticsPeriod } from '@parcours/domain/statistics';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../../lib/api-client';
import { statsKeys } from './query-keys';

export type StatisticsResource = Resource<string, StatisticsAttributes>;

/**
 * The learner's IANA time zone, so that days, Monday weeks and months are the learner's own
 * (the server's buckets follow it); null when the browser does not say.
 */
export function browserTimeZone(): string | null {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return typeof zone === 'string' && zone.length > 0 ? zone : null;
  } catch {
    return null;
  }
}

/** GET /api/statistics for the signed-in learner and a period preset (SPEC §2 "Stats", §9). */
export async function getStatistics(
  period: StatisticsPeriod,
  timeZone: string | null,
  signal?: AbortSignal,
): Promise<StatisticsResource> {
  const doc = await apiFetch<Document<StatisticsResource>>('statistics', {
    query: { 'filter[period]': period, 'filter[tz]': timeZone ?? undefined },
    signal,
  });
  return doc.data;
}

export const statisticsQueryOptions = (period: StatisticsPeriod, timeZone: string | null) =>
  queryOptions({
    queryKey: statsKeys.period(period, timeZone),
    queryFn: ({ signal }) => getStatistics(period, timeZone, signal),
    // Changing the period keeps the previous charts on screen until the new figures arrive.
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

export function useStatistics(period: StatisticsPeriod, timeZone: string | null) {
  return useQuery(statisticsQueryOptions(period, timeZone));
}
