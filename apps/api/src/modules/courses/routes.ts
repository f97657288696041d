import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { filterValue, jsonApiQuerySchema } from '../../plugins/jsonapi';
import { INCLUDES } from '../relations';
import { listRoute, oneRoute } from '../respond';
import { findCourse, listCompetencies } from './repository';
import { toCompetencyResource, toCourseResource } from './serializer';
import { collectionOf, documentOf } from '../../plugins/contract';
import {
  courseCategoryResource,
  courseCompetencyResource,
  courseResource,
  courseTypeResource,
} from '../../plugins/resources';

export const courseRoutes: FastifyPluginAsyncZod = async (app) => {
  oneRoute(app, {
    path: '/courses/:id',
    tag: 'courses',
    summary: 'One course of the user’s programs or lessons.',
    query: jsonApiQuerySchema({ includes: INCLUDES.courses }),
    document: documentOf(courseResource, [courseTypeResource, courseCategoryResource]),
    name: 'Course',
    find: findCourse,
    toResource: toCourseResource,
  });
  listRoute(app, {
    path: '/course-competencies',
    tag: 'courses',
    summary: 'Competency tree of the tenant.',
    query: jsonApiQuerySchema({ filters: { id: filterValue }, sorts: ['order'], paginated: true }),
    document: collectionOf(courseCompetencyResource),
    list: listCompetencies,
    toResource: toCompetencyResource,
  });
};
