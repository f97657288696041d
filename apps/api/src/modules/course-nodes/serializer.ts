import { parseJson } from '../../db/schema';
import type { Resource } from '../../plugins/jsonapi';
import { downloadPath } from '../files/service';
import { nodeView } from '../lesson-pages/serializer';
import type { NodeRow } from './repository';

export function toNodeResource(row: NodeRow): Resource {
  // JSON:API forbids attributes named `id` or `type`: the id is the resource's, the node type is `kind`.
  const { id: _id, type: kind, ...view } = nodeView(row);
  return {
    type: 'course-nodes',
    id: row.id,
    // attachmentUrls: the API signs them for the viewer (files/signing.ts), so links work as is.
    attributes: {
      ...view,
      kind,
      attachmentUrls: view.attachmentIds.map(downloadPath),
      courseId: row.courseId,
      blockId: row.blockId,
      order: row.order,
      // docs/product.md §3 CourseNode `conditions`, as authored (docs/content-format.md).
      conditions: parseJson<unknown[]>(row.conditions, []),
    },
    relationships: {
      parent: { data: row.parentId ? { type: 'course-nodes', id: row.parentId } : null },
      block: { data: row.blockId ? { type: 'course-blocks', id: row.blockId } : null },
    },
  };
}
