import type { CourseNodeAttributes } from '@parcours/domain/contract/player';
import type { Document, Resource } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { indexDocument, relatedMany } from '../../../lib/json-api';
import { playerKeys } from './query-keys';

/** A node of the course tree (the node type travels as `kind`): the API contract's type. */
export type { CourseNodeAttributes };

export type CourseNodeResource = Resource<string, CourseNodeAttributes>;

export interface CourseNodeView {
  node: CourseNodeResource;
  children: CourseNodeResource[];
}

/** A course node with its children (node mode, docs/product.md §2 /render/node/{id}). */
export async function getCourseNode(nodeId: string, signal?: AbortSignal): Promise<CourseNodeView> {
  const doc = await apiFetch<Document<CourseNodeResource>>(`course-nodes/${encodeURIComponent(nodeId)}`, {
    query: { include: 'children' },
    signal,
  });
  const index = indexDocument(doc);
  const children = relatedMany<CourseNodeAttributes>(doc.data, 'children', index).sort(
    (a, b) => a.attributes.order - b.attributes.order,
  );
  return { node: doc.data, children };
}

export const courseNodeQueryOptions = (nodeId: string) =>
  queryOptions({ queryKey: playerKeys.node(nodeId), queryFn: ({ signal }) => getCourseNode(nodeId, signal) });

export function useCourseNode(nodeId: string | null) {
  return useQuery({ ...courseNodeQueryOptions(nodeId ?? ''), enabled: nodeId !== null });
}
