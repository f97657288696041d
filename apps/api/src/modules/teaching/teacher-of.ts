import type { Db } from '../../db/db';
import { ApiError } from '../../plugins/errors';
import type { Viewer } from '../scope';
import { notFound } from '../scope';

/**
 * What a teacher does with a class (docs/product.md §7 `classes/{id}/users/data`, time accommodations) only
 * a TEACHER of that very class, or an administrator of the tenant, may do; a teacher of another
 * class gets 403 like a learner. A class of another tenant does not exist (404).
 */
export async function assertTeacherOf(db: Db, v: Viewer, classId: string): Promise<void> {
  const klass = await db
    .selectFrom('classes')
    .select('id')
    .where('id', '=', classId)
    .where('contextId', '=', v.contextId)
    .executeTakeFirst();
  if (!klass) throw notFound('Class');
  if (v.isAdmin) return;
  const teacher = await db
    .selectFrom('classUsers')
    .select('id')
    .where('classId', '=', classId)
    .where('userId', '=', v.userId)
    .where('role', '=', 'TEACHER')
    .executeTakeFirst();
  if (!teacher) throw new ApiError(403, 'Forbidden', 'Only a teacher of this class may do this.');
}
