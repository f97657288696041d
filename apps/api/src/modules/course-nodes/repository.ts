import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { CourseNodesTable } from '../../db/schema';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { Viewer } from '../scope';
import { countRows, visibleCourseIds, withSort } from '../scope';

export type NodeRow = Selectable<CourseNodesTable>;

function base(db: Db, v: Viewer) {
  return db.selectFrom('courseNodes as n').where('n.courseId', 'in', visibleCourseIds(db, v));
}

export async function listNodes(
  db: Db,
  v: Viewer,
  q: JsonApiQuery,
): Promise<{ rows: NodeRow[]; total: number }> {
  let qb = base(db, v);
  const f = q.filters;
  if (f.courseId) qb = qb.where('n.courseId', 'in', f.courseId);
  if (f.parentId) qb = qb.where('n.parentId', 'in', f.parentId);
  if (f.type) qb = qb.where('n.type', 'in', f.type);
  if (f.id) qb = qb.where('n.id', 'in', f.id);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.selectAll('n'),
    q.sort,
    { order: 'n.order' },
    [{ field: 'order', desc: false }],
    'n.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

export async function nodesByIds(db: Db, v: Viewer, ids: string[]): Promise<NodeRow[]> {
  if (ids.length === 0) return [];
  return base(db, v).selectAll('n').where('n.id', 'in', ids).execute();
}

export async function childrenOf(db: Db, v: Viewer, parentIds: string[]): Promise<NodeRow[]> {
  if (parentIds.length === 0) return [];
  return base(db, v)
    .selectAll('n')
    .where('n.parentId', 'in', parentIds)
    .orderBy('n.order')
    .orderBy('n.id')
    .execute();
}
