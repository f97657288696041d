import type { CourseCompetencyAttributes, Resource } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAfterFirstScreen } from '../../../lib/after-first-screen';
import { fetchCollection } from '../../../lib/api-collection';
import { homeKeys } from './query-keys';

export type CompetencyResource = Resource<string, CourseCompetencyAttributes>;

/** The competencies named by the learner's courses, for the "by competency" filter. */
export async function getCompetencies(
  ids: readonly string[],
  signal?: AbortSignal,
): Promise<CompetencyResource[]> {
  if (ids.length === 0) return [];
  const doc = await fetchCollection<CourseCompetencyAttributes>(
    'course-competencies',
    { 'filter[id]': ids, sort: 'order' },
    signal,
  );
  return doc.data;
}

export const competenciesQueryOptions = (ids: readonly string[]) =>
  queryOptions({
    queryKey: homeKeys.competencies(ids),
    queryFn: ({ signal }) => getCompetencies(ids, signal),
    staleTime: 5 * 60_000,
    // Offline, fail at once (no kept copy: the filter only loses its competencies) instead of
    // pausing, which would leave the filter pending.
    networkMode: 'always',
  });

/** `filtering`: a competency filter is on, so the classes shown depend on this read. */
export function useCompetencies(ids: readonly string[], filtering = false) {
  // Otherwise only the filter's options: asked once the classes are painted, so on a slow phone
  // this read never comes before them (issue 11, decision 0030). The filter shows "all" meanwhile.
  const afterFirstScreen = useAfterFirstScreen();
  return useQuery({ ...competenciesQueryOptions(ids), enabled: filtering || afterFirstScreen });
}
