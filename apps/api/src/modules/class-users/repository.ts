import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { ClassUsersTable } from '../../db/schema';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { Viewer } from '../scope';
import { countRows, withSort } from '../scope';

export type ClassUserRow = Selectable<ClassUsersTable>;

/** `userIds` were checked by the service (oneself, or anyone for administrators). */
export async function listClassUsers(
  db: Db,
  v: Viewer,
  userIds: string[],
  q: JsonApiQuery,
): Promise<{ rows: ClassUserRow[]; total: number }> {
  let qb = db
    .selectFrom('classUsers as cu')
    .innerJoin('classes as c', 'c.id', 'cu.classId')
    .where('c.contextId', '=', v.contextId)
    .where('cu.userId', 'in', userIds);
  if (q.filters.classId) qb = qb.where('cu.classId', 'in', q.filters.classId);
  if (q.filters.role) qb = qb.where('cu.role', 'in', q.filters.role);
  const expired = q.filters.expired?.[0];
  if (expired === 'true') {
    qb = qb.where('c.expireAt', 'is not', null).where('c.expireAt', '<', v.now);
  } else if (expired === 'false') {
    qb = qb.where((eb) => eb.or([eb('c.expireAt', 'is', null), eb('c.expireAt', '>=', v.now)]));
  }
  const total = await countRows(qb);
  const rows = await withSort(qb.selectAll('cu'), q.sort, { createdAt: 'cu.createdAt' }, [{ field: 'createdAt', desc: false }], 'cu.id')
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}
