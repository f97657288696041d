import { DASHBOARD_REFRESH_MS } from '@parcours/domain/constants';
import type { LessonAttributes, Resource } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchCollection } from '../../../lib/api-collection';
import { homeKeys } from './query-keys';

export type LessonResource = Resource<string, LessonAttributes>;

/** The learner's lessons (state, progress, score) to show on each class card. */
export async function getLessons(userId: string, signal?: AbortSignal): Promise<LessonResource[]> {
  const doc = await fetchCollection<LessonAttributes>(
    'lessons',
    { 'filter[userId]': userId, include: 'course' },
    signal,
  );
  return doc.data;
}

export const lessonsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: homeKeys.lessons(userId),
    queryFn: ({ signal }) => getLessons(userId, signal),
    // SPEC §9: lesson visibility on the dashboard refreshes every 20 s (only while visible).
    refetchInterval: DASHBOARD_REFRESH_MS,
    // Coming back from a lesson, the lessons it unlocked must show at once, not 20 s later.
    refetchOnMount: 'always',
  });

export function useLessons(userId: string) {
  return useQuery(lessonsQueryOptions(userId));
}
