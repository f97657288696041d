import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { displayName } from '@parcours/domain/display-name';
import { progressionPercent, scoreRatio } from '@parcours/domain/progress';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import { collectionDocument, jsonApiQuerySchema } from '../../plugins/jsonapi';
import type { Resource } from '../../plugins/jsonapi';
import { activePagesOfLessons, structureOfCourses } from '../lessons/repository';
import { buildTree, latestProgressByNode } from '../lessons/serializer';
import type { Viewer } from '../scope';
import { groupBy, scopeOf } from '../scope';
import { assertTeacherOf } from './teacher-of';
import { accommodationResource, timeAccommodationRoutes } from './time-accommodation';
import { collectionOf } from '../../plugins/contract';
import { classUserDataResource } from '../../plugins/resources';

/**
 * docs/product.md §7 `classes/{id}/users/data` (role TEACHER): the learners of one class with, per course
 * they have a lesson in, the progression, score and time, and their time accommodation
 * (decision 0019). Only a teacher of that very class (or an administrator of the tenant) may read
 * it (teacher-of.ts).
 */

interface CourseData {
  courseId: string;
  courseTitle: string;
  lessonId: string;
  state: string;
  percentProgression: number;
  score: { actual: number; max: number };
  scoreRatio: number;
  timeSpent: number;
  startedAt: string | null;
}

export async function classUsersData(db: Db, v: Viewer, classId: string): Promise<Resource[]> {
  await assertTeacherOf(db, v, classId);
  const students = await db
    .selectFrom('classUsers as cu')
    .innerJoin('users as u', 'u.id', 'cu.userId')
    .select([
      'u.id',
      'u.firstname',
      'u.lastname',
      'u.username',
      'u.email',
      'u.avatarId',
      'cu.timeFactor',
      'cu.noTimeLimit',
    ])
    .where('cu.classId', '=', classId)
    .where('cu.role', '=', 'STUDENT')
    .where('u.contextId', '=', v.contextId)
    .orderBy('u.lastname')
    .orderBy('u.firstname')
    .orderBy('u.id')
    .execute();
  const lessons = await db
    .selectFrom('lessons as l')
    .innerJoin('courses as c', 'c.id', 'l.courseId')
    .select([
      'l.id',
      'l.userId',
      'l.courseId',
      'c.title',
      'l.state',
      'l.scoring',
      'l.timeSpent',
      'l.startedAt',
      'l.enabledSectionIds',
    ])
    .where('l.classId', '=', classId)
    .where('l.contextId', '=', v.contextId)
    .orderBy('l.createdAt')
    .orderBy('l.id')
    .execute();
  // Three queries for the whole class: structure of its courses, then every lesson's pages.
  const structure = groupBy(
    await structureOfCourses(db, [...new Set(lessons.map((l) => l.courseId))]),
    (n) => n.courseId,
  );
  const pages = groupBy(
    await activePagesOfLessons(
      db,
      lessons.map((l) => l.id),
    ),
    (p) => p.lessonId,
  );
  const byUser = groupBy(
    lessons.map((l): CourseData & { userId: string } => {
      const enabled = parseJson<unknown>(l.enabledSectionIds, []);
      const tree = buildTree(
        structure.get(l.courseId) ?? [],
        latestProgressByNode(pages.get(l.id) ?? []),
        Array.isArray(enabled) ? enabled.filter((x): x is string => typeof x === 'string') : [],
      );
      const raw = parseJson<{ global?: { actual?: unknown; max?: unknown } }>(l.scoring, {});
      const score = { actual: Number(raw.global?.actual ?? 0) || 0, max: Number(raw.global?.max ?? 0) || 0 };
      return {
        userId: l.userId,
        courseId: l.courseId,
        courseTitle: l.title,
        lessonId: l.id,
        state: l.state,
        percentProgression: progressionPercent(tree),
        score,
        scoreRatio: scoreRatio(score),
        timeSpent: l.timeSpent,
        startedAt: l.startedAt,
      };
    }),
    (d) => d.userId,
  );
  return students.map((s) => {
    const courses = (byUser.get(s.id) ?? []).map(({ userId: _userId, ...rest }) => rest);
    return {
      type: 'class-user-data',
      id: `${classId}:${s.id}`,
      attributes: {
        classId,
        userId: s.id,
        // A teacher may write to their learners: the e-mail is part of what they need.
        displayName: displayName(s),
        email: s.email,
        avatarId: s.avatarId,
        timeSpent: courses.reduce((sum, c) => sum + c.timeSpent, 0),
        courses,
        // Decision 0019: what the teacher set, shown and changed on the class screen.
        timeAccommodation: accommodationResource(classId, s.id, s).attributes,
      },
    };
  });
}

export const teachingRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(timeAccommodationRoutes);
  app.get(
    '/classes/:id/users/data',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['classes'],
        summary:
          'Learners of a class with their progress, score and time per course (teachers of that class only).',
        params: z.object({ id: z.string().min(1).max(200) }),
        querystring: jsonApiQuerySchema({}),
        response: { 200: collectionOf(classUserDataResource) },
      },
    },
    async (request) => {
      const { viewer } = scopeOf(app.db, request);
      const data = await classUsersData(app.db, viewer, request.params.id);
      return collectionDocument(data, [], data.length, { number: 1, size: Math.max(data.length, 1) });
    },
  );
};
