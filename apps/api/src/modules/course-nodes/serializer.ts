import type { Resource } from '../../plugins/jsonapi';
import { nodeView } from '../lesson-pages/serializer';
import type { NodeRow } from './repository';

export function toNodeResource(row: NodeRow): Resource {
  const view = nodeView(row);
  return {
    type: 'course-nodes',
    id: row.id,
    attributes: { ...view, courseId: row.courseId, blockId: row.blockId, order: row.order },
    relationships: {
      parent: { data: row.parentId ? { type: 'course-nodes', id: row.parentId } : null },
      block: { data: row.blockId ? { type: 'course-blocks', id: row.blockId } : null },
    },
  };
}
