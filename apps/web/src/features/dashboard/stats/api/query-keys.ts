import type { StatisticsPeriod } from '@parcours/domain/statistics';

/** Query keys of the statistics tab, from one factory so invalidation can target the whole tab. */
export const statsKeys = {
  all: ['statistics'] as const,
  period: (period: StatisticsPeriod, timeZone: string | null) =>
    [...statsKeys.all, period, timeZone] as const,
};
