import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { filterValue, jsonApiQuerySchema } from '../../plugins/jsonapi';
import { INCLUDES } from '../relations';
import { listRoute, oneRoute } from '../respond';
import { findProgram, listProgramCourses, listPrograms } from './repository';
import { toProgramCourseResource, toProgramResource } from './serializer';
import { collectionOf, documentOf } from '../../plugins/contract';
import { courseResource, programCourseResource, programResource } from '../../plugins/resources';

export const programRoutes: FastifyPluginAsyncZod = async (app) => {
  listRoute(app, {
    path: '/programs',
    tag: 'programs',
    summary: "Programs of the user's classes (no drafts for learners).",
    query: jsonApiQuerySchema({
      filters: { id: filterValue },
      sorts: ['name'],
      includes: INCLUDES.programs,
      paginated: true,
    }),
    document: collectionOf(programResource, [programCourseResource, courseResource]),
    list: listPrograms,
    toResource: toProgramResource,
  });
  oneRoute(app, {
    path: '/programs/:id',
    tag: 'programs',
    summary: 'One program.',
    query: jsonApiQuerySchema({ includes: INCLUDES.programs }),
    document: documentOf(programResource, [programCourseResource, courseResource]),
    name: 'Program',
    find: findProgram,
    toResource: toProgramResource,
  });
  listRoute(app, {
    path: '/program-courses',
    tag: 'programs',
    summary: 'Courses of visible programs, in order.',
    query: jsonApiQuerySchema({
      filters: { programId: filterValue, id: filterValue },
      sorts: ['order'],
      includes: INCLUDES.programCourses,
      paginated: true,
    }),
    document: collectionOf(programCourseResource, [courseResource]),
    list: listProgramCourses,
    toResource: toProgramCourseResource,
  });
};
