import type {
  CourseAttributes,
  CourseCategoryAttributes,
  CourseCompetencyAttributes,
} from '@parcours/domain/entities';
import type { Resource } from '../../plugins/jsonapi';
import { jsonObject, jsonStrings, publicationState } from '../programs/serializer';
import type { CourseCategoryRow, CourseCompetencyRow, CourseRow, CourseTypeRow } from './repository';

export function toCourseResource(row: CourseRow): Resource {
  const attributes: CourseAttributes = {
    title: row.title,
    description: row.description,
    reference: row.reference,
    state: publicationState(row.state),
    categoryId: row.categoryId,
    typeId: row.typeId,
    competencyIds: jsonStrings(row.competencyIds),
    video: row.video,
    settings: jsonObject(row.settings),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  return {
    type: 'courses',
    id: row.id,
    attributes: { ...attributes },
    relationships: {
      // Not `type`: JSON:API forbids a relationship (or attribute) of that name.
      courseType: { data: row.typeId ? { type: 'course-types', id: row.typeId } : null },
      category: { data: { type: 'course-categories', id: row.categoryId } },
    },
  };
}

export function toCourseTypeResource(row: CourseTypeRow): Resource {
  return {
    type: 'course-types',
    id: row.id,
    attributes: { title: row.title, description: row.description, settings: jsonObject(row.settings) },
  };
}

export function toCourseCategoryResource(row: CourseCategoryRow): Resource {
  const attributes: CourseCategoryAttributes = {
    title: row.title,
    icon: row.icon,
    backgroundImageId: row.backgroundImageId,
  };
  return { type: 'course-categories', id: row.id, attributes: { ...attributes } };
}

export function toCompetencyResource(row: CourseCompetencyRow): Resource {
  const attributes: CourseCompetencyAttributes = {
    parentId: row.parentId,
    isGeneric: row.isGeneric === 1,
    title: row.title,
    icon: row.icon,
    order: row.order,
  };
  return { type: 'course-competencies', id: row.id, attributes: { ...attributes } };
}
