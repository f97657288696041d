import type { ClassRole, ClassUserAttributes } from '@parcours/domain/entities';
import type { Resource } from '../../plugins/jsonapi';
import type { ClassUserRow } from './repository';

export function toClassUserResource(row: ClassUserRow): Resource {
  const attributes: ClassUserAttributes = {
    classId: row.classId,
    userId: row.userId,
    role: (row.role === 'TEACHER' ? 'TEACHER' : 'STUDENT') satisfies ClassRole,
    createdAt: row.createdAt,
  };
  return {
    type: 'class-users',
    id: row.id,
    attributes: { ...attributes },
    relationships: { class: { data: { type: 'classes', id: row.classId } } },
  };
}
