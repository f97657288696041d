import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../../src/db/db';
import { login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import type { FastifyInstance } from 'fastify';
import { T0, hosts, ids } from '../helpers/fixtures';

/**
 * Rows the certificate tests add to the shared fixture world: the alpha tenant allows
 * certificates, a certifying course (own settings, passing score 0.5) and learners' lessons
 * in each state the rules distinguish.
 */
export const cert = {
  type: 'ct-cert',
  course: 'course-cert',
  courseByType: 'course-cert-type',
  courseTitle: 'Sécurité au travail',
  ended: 'lesson-cert-ended',
  endedRef: 'CERT-7F3A9C21D0',
  below: 'lesson-cert-below',
  byType: 'lesson-cert-bytype',
  ongoing: 'lesson-cert-ongoing',
  bobEnded: 'lesson-cert-bob',
  endedAt: '2026-03-04T10:00:00.000Z',
} as const;

export async function seedCertificates(db: Db): Promise<void> {
  const ctx = await db
    .selectFrom('contexts')
    .select('settings')
    .where('id', '=', ids.ctxA)
    .executeTakeFirstOrThrow();
  const settings = {
    ...(JSON.parse(ctx.settings) as object),
    certification: { allowed: true, type: 'attestation' },
  };
  await db
    .updateTable('contexts')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', ids.ctxA)
    .execute();
  await db
    .insertInto('courseTypes')
    .values({
      id: cert.type,
      contextId: ids.ctxA,
      title: 'Certifying',
      description: null,
      settings: JSON.stringify({ certificate: true }),
    })
    .execute();
  const ts = {
    createdAt: T0,
    updatedAt: T0,
    description: null,
    video: null,
    categoryId: ids.category,
    state: 'PUBLISHED',
    contextId: ids.ctxA,
  };
  await db
    .insertInto('courses')
    .values([
      {
        ...ts,
        id: cert.course,
        title: cert.courseTitle,
        reference: 'CERT',
        typeId: ids.type,
        settings: JSON.stringify({ certification: { passingScore: 0.5, wording: 'certification' } }),
      },
      {
        ...ts,
        id: cert.courseByType,
        title: 'Gestes et postures',
        reference: 'GP',
        typeId: cert.type,
        settings: '{}',
      },
    ])
    .execute();
  const lesson = (
    id: string,
    userId: string,
    classId: string,
    courseId: string,
    extra: Record<string, unknown>,
  ) => ({
    id,
    contextId: ids.ctxA,
    userId,
    classId,
    classProgramId: null,
    programCourseId: null,
    courseId,
    classStepProgramId: null,
    currentNodeId: null,
    timeLimit: null,
    state: 'DONE',
    progress: 'COMPLETED',
    certificationRef: null,
    startAt: null,
    startedAt: '2026-03-01T08:00:00.000Z',
    endedAt: cert.endedAt,
    scoring: '{"global":{"actual":0,"max":0}}',
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  });
  await db
    .insertInto('lessons')
    .values([
      lesson(cert.ended, ids.learnerA, ids.classCurrent, cert.course, {
        certificationRef: cert.endedRef,
        scoring: '{"global":{"actual":17,"max":20}}',
      }),
      lesson(cert.below, ids.learnerA, ids.classCurrent, cert.course, {
        certificationRef: 'CERT-BELOW',
        scoring: '{"global":{"actual":4,"max":20}}',
      }),
      lesson(cert.byType, ids.learnerA, ids.classCurrent, cert.courseByType, {
        state: 'SKIPPED',
        progress: 'ONGOING',
        certificationRef: 'GP-1',
        // At least the default passing score (0.5) of a course certifying through its type.
        scoring: '{"global":{"actual":6,"max":10}}',
      }),
      lesson(cert.ongoing, ids.learnerA, ids.classCurrent, cert.courseByType, {
        state: 'AVAILABLE',
        progress: 'ONGOING',
        endedAt: null,
      }),
      lesson(cert.bobEnded, ids.learnerB, ids.classB, cert.course, {
        certificationRef: 'CERT-BOB',
        scoring: '{"global":{"actual":20,"max":20}}',
      }),
    ])
    .execute();
}

/** A test app with these rows and Anna signed in, for one test file (started and closed around it). */
export function certificateWorld(): { t: TestContext; anna: string } {
  const world = { t: undefined as unknown as TestContext, anna: '' };
  beforeAll(async () => {
    world.t = await startTestApp();
    await seedCertificates(world.t.tdb.db);
    world.anna = await login(world.t.app, 'anna@example.test');
    // Anna's certified lessons: their certificates awarded, as the app does before a download.
    await award(world.t.app, cert.ended, world.anna);
    await award(world.t.app, cert.byType, world.anna);
  });
  afterAll(async () => {
    await world.t.close();
  });
  return world;
}

/**
 * The award of a certificate (POST, decision 0065): what the app sends before a download, whose
 * GETs read only. Fails the test unless the certificate is awarded (201) or was (200).
 */
export async function award(
  app: FastifyInstance,
  lessonId: string,
  token: string,
  host: string = hosts.alpha,
) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/lessons/${lessonId}/certificate`,
    headers: { host, authorization: `Bearer ${token}` },
  });
  if (res.statusCode !== 200 && res.statusCode !== 201)
    throw new Error(`award ${lessonId}: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; verificationUrl: string };
}
