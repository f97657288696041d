import type { ProgramAttributes, ProgramCourseAttributes, PublicationState } from '@parcours/domain/entities';
import { parseJson } from '../../db/schema';
import type { Resource } from '../../plugins/jsonapi';
import type { ProgramCourseRow, ProgramRow } from './repository';

export function jsonObject(text: string): Record<string, unknown> {
  const v = parseJson<unknown>(text, {});
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function jsonStrings(text: string): string[] {
  const v = parseJson<unknown>(text, []);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function publicationState(state: string): PublicationState {
  return state === 'PUBLISHED' || state === 'CLOSED' ? state : 'DRAFT';
}

export function toProgramResource(row: ProgramRow): Resource {
  const attributes: ProgramAttributes = {
    name: row.name,
    description: row.description,
    icon: row.icon,
    public: row.public === 1,
    settings: jsonObject(row.settings),
    tags: jsonStrings(row.tags),
    state: publicationState(row.state),
  };
  return { type: 'programs', id: row.id, attributes: { ...attributes } };
}

export function toProgramCourseResource(row: ProgramCourseRow): Resource {
  const attributes: ProgramCourseAttributes = {
    programId: row.programId,
    courseId: row.courseId,
    order: row.order,
    settings: jsonObject(row.settings),
  };
  return {
    type: 'program-courses',
    id: row.id,
    attributes: { ...attributes },
    relationships: { course: { data: { type: 'courses', id: row.courseId } } },
  };
}
