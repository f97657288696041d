import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { filterValue, jsonApiQuerySchema } from '../../plugins/jsonapi';
import { toClassProgramResource } from '../classes/serializer';
import { INCLUDES } from '../relations';
import { listRoute, oneRoute } from '../respond';
import { knowHomeVersions } from '../../lib/home-versions';
import { currentUser } from '../../plugins/auth';
import { readLessonsView } from '../lessons/service';
import { notFound, scopeOf } from '../scope';
import { findClassProgram, listClassPrograms } from './repository';
import { resetMyProgram } from './reset';
import { collectionOf, documentOf } from '../../plugins/contract';
import {
  LESSON_INCLUDED,
  classProgramResource,
  courseResource,
  lessonResource,
  programCourseResource,
  programResource,
} from '../../plugins/resources';

const listQuery = jsonApiQuerySchema({
  filters: { classId: filterValue, id: filterValue },
  sorts: ['order'],
  includes: INCLUDES.classPrograms,
  paginated: true,
});
const oneQuery = jsonApiQuerySchema({ includes: INCLUDES.classPrograms });
const params = z.object({ id: z.string().min(1) });

export interface ClassProgramRoutesOptions {
  /** Server clock of the progression rules (tests). */
  now?: () => Date;
}

export const classProgramRoutes: FastifyPluginAsyncZod<ClassProgramRoutesOptions> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());
  listRoute(app, {
    path: '/class-programs',
    tag: 'classes',
    summary: "Programs of the user's classes.",
    query: listQuery,
    document: collectionOf(classProgramResource, [programResource, programCourseResource, courseResource]),
    list: listClassPrograms,
    toResource: toClassProgramResource,
  });
  oneRoute(app, {
    path: '/class-programs/:id',
    tag: 'classes',
    summary: 'One class program.',
    query: oneQuery,
    document: documentOf(classProgramResource, [programResource, programCourseResource, courseResource]),
    name: 'Class program',
    find: findClassProgram,
    toResource: toClassProgramResource,
  });

  app.post(
    '/class-programs/:id/reset/me',
    {
      // The content stamp read with the user (one statement): the answer's lessons are drawn
      // from the content caches under it.
      onRequest: app.auth.requireHomeUser,
      schema: {
        tags: ['classes'],
        summary:
          'Restarts the program for the signed-in learner: their lessons back to the start, their pages archived.',
        params,
        response: {
          200: collectionOf(lessonResource, LESSON_INCLUDED),
        },
      },
    },
    async (request) => {
      const scope = scopeOf(app.db, request);
      if (!(await findClassProgram(app.db, scope.viewer, request.params.id))) throw notFound('Class program');
      const at = now();
      const rows = await resetMyProgram(
        {
          db: app.db,
          kind: app.dbKind,
          contextId: request.context.id,
          userId: currentUser(request).id,
          now: at,
        },
        request.params.id,
      );
      // With the viewer, the programs and course trees come from the caches kept under the
      // content stamp read with the user (decision 0015): a reset changes the learner's rows,
      // not content.
      const versions = currentUser(request).homeVersions;
      if (versions) knowHomeVersions(scope.viewer, versions);
      const { resources: data } = await readLessonsView(app.db, app.dbKind, rows, at, scope.viewer);
      return { data, meta: { total: data.length } };
    },
  );
};
