import type { Document } from '@parcours/domain/entities';
import { ratingRatio } from '@parcours/domain/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import type { ReviewResource } from './get-reviews';
import { progressionKeys } from './query-keys';

export interface ReviewInput {
  classId: string;
  programId: string;
  rating: number;
  comment?: string | undefined;
}

/** Rates a program (SPEC §3 Review: the ratio is rating / 5; an empty comment is not sent). */
export async function postReview({
  classId,
  programId,
  rating,
  comment,
}: ReviewInput): Promise<ReviewResource> {
  const text = comment?.trim();
  const doc = await apiFetch<Document<ReviewResource>>('reviews', {
    method: 'POST',
    body: {
      classId,
      resourceType: 'program',
      resourceId: programId,
      ratio: ratingRatio(rating),
      ...(text ? { comment: text } : {}),
    },
  });
  return doc.data;
}

export function usePostReview(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postReview,
    onSuccess: (review, input) => {
      // The review now exists: a later visit shows it instead of an empty form.
      queryClient.setQueryData(progressionKeys.review(input.programId, userId), review);
    },
  });
}
