import type { ReviewAttributes } from '@parcours/domain/contract/dashboard';
import type { Document, Resource } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { progressionKeys } from './query-keys';

/** docs/product.md §3 Review (`ratio` is the rating / 5): the API contract's type. */
export type { ReviewAttributes };

export type ReviewResource = Resource<string, ReviewAttributes>;

/** The learner's own review of a program, or null when they have not rated it yet. */
export async function getProgramReview(
  programId: string,
  userId: string,
  signal?: AbortSignal,
): Promise<ReviewResource | null> {
  const doc = await apiFetch<Document<ReviewResource[]>>('reviews', {
    query: {
      'filter[resourceType]': 'program',
      'filter[resourceId]': programId,
      'filter[userId]': userId,
      'page[size]': 1,
    },
    signal,
  });
  return doc.data[0] ?? null;
}

export const programReviewQueryOptions = (programId: string, userId: string) =>
  queryOptions({
    queryKey: progressionKeys.review(programId, userId),
    queryFn: ({ signal }) => getProgramReview(programId, userId, signal),
  });

export function useProgramReview(programId: string, userId: string) {
  return useQuery({ ...programReviewQueryOptions(programId, userId), enabled: userId !== '' });
}
