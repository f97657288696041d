import type { Document } from '@parcours/domain/entities';
import { apiFetch } from '../../../lib/api-client';
import type { CourseNodeResource } from './get-course-node';

/** The children of a node in order: node mode finds the next step among them. */
export async function getChildNodes(parentId: string, signal?: AbortSignal): Promise<CourseNodeResource[]> {
  const doc = await apiFetch<Document<CourseNodeResource[]>>('course-nodes', {
    query: { 'filter[parentId]': parentId, sort: 'order' },
    signal,
  });
  return doc.data;
}

/** The node after `nodeId` under the same parent, or null when it is the last one. */
export async function getNextSiblingId(nodeId: string, parentId: string | null): Promise<string | null> {
  if (!parentId) return null;
  const siblings = await getChildNodes(parentId);
  const at = siblings.findIndex((n) => n.id === nodeId);
  return at >= 0 ? (siblings[at + 1]?.id ?? null) : null;
}
