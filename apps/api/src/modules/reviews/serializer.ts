import type { ReviewAttributes } from '@parcours/domain/contract/dashboard';
import type { Resource } from '../../plugins/jsonapi';
import type { ReviewRow } from './repository';

/** docs/product.md §3 Review: the contract's type (packages/domain/src/contract). */
export type { ReviewAttributes };

export function toReviewResource(row: ReviewRow): Resource {
  const attributes: ReviewAttributes = {
    classId: row.classId,
    comment: row.comment,
    resourceType: row.resourceType,
    resourceId: row.resourceId,
    ratio: Number(row.ratio),
    userId: row.userId,
    createdAt: row.createdAt,
  };
  return { type: 'reviews', id: row.id, attributes: { ...attributes } };
}
