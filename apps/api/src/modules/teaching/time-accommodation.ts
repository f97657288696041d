import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { timeAccommodationSchema } from '@parcours/domain/time-accommodation';
import type { TimeAccommodationInput } from '@parcours/domain/time-accommodation';
import type { Db } from '../../db/db';
import { resourceDocument } from '../../plugins/jsonapi';
import type { Resource } from '../../plugins/jsonapi';
import type { Viewer } from '../scope';
import { notFound, scopeOf } from '../scope';
import { assertTeacherOf } from './teacher-of';
import { documentOf } from '../../plugins/contract';
import { timeAccommodationResource } from '../../plugins/resources';

/**
 * Time accommodation (RGAA 13.1, decision 0019): a teacher of a class gives one of its learners
 * more time (×1 to ×4) or no time limit on every timed page and lesson of that class. Only a
 * teacher of that very class (or an administrator of the tenant) may; the player applies it on
 * the learner's next request, a page already running included.
 */

export function accommodationResource(
  classId: string,
  userId: string,
  row: { timeFactor: number | null; noTimeLimit: number | boolean },
): Resource {
  const noTimeLimit = Boolean(row.noTimeLimit);
  return {
    type: 'time-accommodations',
    id: `${classId}:${userId}`,
    attributes: { classId, userId, timeFactor: noTimeLimit ? null : row.timeFactor, noTimeLimit },
  };
}

export async function setTimeAccommodation(
  db: Db,
  v: Viewer,
  classId: string,
  userId: string,
  input: TimeAccommodationInput,
): Promise<Resource> {
  await assertTeacherOf(db, v, classId);
  // ×1 is stored as null: one representation for "no extra time".
  const timeFactor = input.noTimeLimit || input.timeFactor === 1 ? null : input.timeFactor;
  const noTimeLimit = input.noTimeLimit ? 1 : 0;
  const res = await db
    .updateTable('classUsers')
    .set({ timeFactor, noTimeLimit })
    .where('classId', '=', classId)
    .where('userId', '=', userId)
    .where('role', '=', 'STUDENT')
    .executeTakeFirst();
  // The class is the viewer's tenant's (assertTeacherOf): so is every learner enrolled in it.
  if (Number(res.numUpdatedRows) !== 1) throw notFound('Learner');
  return accommodationResource(classId, userId, { timeFactor, noTimeLimit });
}

const idParam = z.string().min(1).max(200);

export const timeAccommodationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/classes/:id/users/:userId/time-accommodation',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['classes'],
        summary:
          'Set a learner’s time accommodation in a class: a factor on every time limit (1 to 4) or no limit (teachers of that class only).',
        params: z.object({ id: idParam, userId: idParam }),
        body: timeAccommodationSchema,
        response: { 200: documentOf(timeAccommodationResource) },
      },
    },
    async (request) => {
      const { viewer } = scopeOf(app.db, request);
      const { id, userId } = request.params;
      return resourceDocument(await setTimeAccommodation(app.db, viewer, id, userId, request.body), []);
    },
  );
};
