import type { Document, Resource } from '@parcours/domain/entities';
import type { CompetencyLevelAttributes } from '@parcours/domain/dashboard-levels';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../../lib/api-client';
import { levelKeys } from './query-keys';

export type CompetencyLevel = Resource<'competency-levels', CompetencyLevelAttributes>;

/** The signed-in learner's medal per competency, in tree order (GET /api/competency-levels). */
export async function getCompetencyLevels(signal?: AbortSignal): Promise<CompetencyLevel[]> {
  const doc = await apiFetch<Document<CompetencyLevel[]>>('competency-levels', { signal });
  return doc.data;
}

export const competencyLevelsQueryOptions = () =>
  queryOptions({
    queryKey: levelKeys.competencies(),
    queryFn: ({ signal }) => getCompetencyLevels(signal),
    staleTime: 60_000,
  });

export function useCompetencyLevels() {
  return useQuery(competencyLevelsQueryOptions());
}
