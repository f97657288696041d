import type { Resource } from '../../plugins/jsonapi';
import type { ReviewRow } from './repository';

/** docs/product.md §3 Review. */
export interface ReviewAttributes {
  classId: string | null;
  comment: string | null;
  resourceType: string;
  resourceId: string;
  ratio: number;
  userId: string;
  createdAt: string;
}

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
