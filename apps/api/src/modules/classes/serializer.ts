import { displayName } from '@parcours/domain/display-name';
import type { ClassAttributes, ClassProgramAttributes, OpeningBoundaries } from '@parcours/domain/entities';
import { parseJson } from '../../db/schema';
import type { Resource } from '../../plugins/jsonapi';
import type { ClassProgramRow, ClassRow, TeacherRow } from './repository';

function objectOf(text: string): Record<string, unknown> {
  const v = parseJson<unknown>(text, {});
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function toClassResource(row: ClassRow): Resource {
  const attributes: ClassAttributes = {
    name: row.name,
    startAt: row.startAt,
    expireAt: row.expireAt,
    settings: objectOf(row.settings),
    createdAt: row.createdAt,
  };
  return { type: 'classes', id: row.id, attributes: { ...attributes } };
}

export function toClassProgramResource(row: ClassProgramRow): Resource {
  const boundaries = objectOf(row.openingBoundaries);
  const openingBoundaries: OpeningBoundaries = {
    ...(typeof boundaries.from === 'string' || boundaries.from === null ? { from: boundaries.from } : {}),
    ...(typeof boundaries.to === 'string' || boundaries.to === null ? { to: boundaries.to } : {}),
  };
  const attributes: ClassProgramAttributes = {
    classId: row.classId,
    programId: row.programId,
    order: row.order,
    startAt: row.startAt,
    expireAt: row.expireAt,
    openingBoundaries,
  };
  return {
    type: 'class-programs',
    id: row.id,
    attributes: { ...attributes },
    relationships: { program: { data: { type: 'programs', id: row.programId } } },
  };
}

/**
 * Teachers are shown with a public profile only; the e-mail is left out even as a display-name
 * fallback, so learners never learn a teacher's address from it.
 */
export function toTeacherResource(row: TeacherRow): Resource {
  return {
    type: 'users',
    id: row.id,
    attributes: { displayName: displayName({ ...row, email: null }), avatarId: row.avatarId },
  };
}
