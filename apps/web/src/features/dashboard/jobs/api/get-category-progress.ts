import type { Document, Resource } from '@parcours/domain/entities';
import type { CategoryProgressAttributes } from '@parcours/domain/dashboard-levels';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../../lib/api-client';
import { levelKeys } from '../../levels/api/query-keys';

export type CategoryProgress = Resource<'category-progress', CategoryProgressAttributes>;

/** The signed-in learner's started categories with their percent (GET /api/category-progress). */
export async function getCategoryProgress(signal?: AbortSignal): Promise<CategoryProgress[]> {
  const doc = await apiFetch<Document<CategoryProgress[]>>('category-progress', { signal });
  return doc.data;
}

export const categoryProgressQueryOptions = () =>
  queryOptions({
    queryKey: levelKeys.categories(),
    queryFn: ({ signal }) => getCategoryProgress(signal),
    staleTime: 60_000,
  });

export function useCategoryProgress() {
  return useQuery(categoryProgressQueryOptions());
}
