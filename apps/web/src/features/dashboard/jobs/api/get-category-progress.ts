import type { Document, Resource } from '@parcours/domain/entities';
import type { CategoryProgressAttributes } from '@parcours/domain/dashboard-levels';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../../lib/api-client';
import { logOnly } from '../../../../lib/log-only';
import { levelKeys } from '../../levels/api/query-keys';

export type CategoryProgress = Resource<'category-progress', CategoryProgressAttributes>;

/** The signed-in learner's started categories with their percent (GET /api/category-progress). */
export async function getCategoryProgress(signal?: AbortSignal): Promise<CategoryProgress[]> {
  const doc = await apiFetch<Document<CategoryProgress[]>>('category-progress', { signal });
  // docs/product.md §8: a category gone from the catalogue (no title) is left out, only logged.
  return doc.data.filter((job) => {
    if (job.attributes.title) return true;
    logOnly('category missing', job.id);
    return false;
  });
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
