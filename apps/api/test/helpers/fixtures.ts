import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '../../src/db/db';
import { hashPassword } from '../../src/lib/password';

/**
 * A small deterministic world inserted directly (no demo content): tenants alpha and beta with
 * host names, a generic tenant, learners A and B, a teacher, an administrator, companies, a
 * published and a draft course with a node tree, programs, classes with windows, enrolments,
 * lessons and a few lesson pages.
 */
export const PASSWORD = 'Secret-123!';
export const T0 = '2026-01-01T00:00:00.000Z';
const PAST = '2025-01-01T00:00:00.000Z';
const FUTURE = '2099-01-01T00:00:00.000Z';
const EXPIRED = '2025-06-01T00:00:00.000Z';

export const ids = {
  ctxA: 'ctx-alpha',
  ctxB: 'ctx-beta',
  ctxGeneric: 'ctx-generic',
  learnerA: 'u-learner-a',
  learnerB: 'u-learner-b',
  teacher: 'u-teacher',
  admin: 'u-admin',
  betaUser: 'u-beta',
  roleAdmin: 'role-admin',
  company: 'co-acme',
  type: 'ct-standard',
  category: 'cat-maths',
  compRoot: 'comp-root',
  compChild: 'comp-child',
  coursePub: 'course-pub',
  courseDraft: 'course-draft',
  courseBeta: 'course-beta',
  progPub: 'prog-pub',
  progDraft: 'prog-draft',
  progBeta: 'prog-beta',
  pcPub: 'pc-pub',
  pcDraftCourse: 'pc-draft-course',
  pcInDraftProg: 'pc-in-draft-prog',
  pcBeta: 'pc-beta',
  classCurrent: 'class-current',
  classExpired: 'class-expired',
  classB: 'class-b',
  classBeta: 'class-beta',
  cpCurrentPub: 'cp-current-pub',
  cpCurrentDraft: 'cp-current-draft',
  cpExpired: 'cp-expired',
  cpB: 'cp-b',
  cpBeta: 'cp-beta',
  lessonA1: 'lesson-a1',
  lessonA2: 'lesson-a2',
  lessonB1: 'lesson-b1',
  lessonBeta: 'lesson-beta',
  node: {
    root: 'n-root',
    s1: 'n-s1',
    b1: 'n-b1',
    b2: 'n-b2',
    s2: 'n-s2',
    m: 'n-m',
    m1: 'n-m1',
    m2: 'n-m2',
    b3: 'n-b3',
    draftRoot: 'n-draft-root',
    draftS: 'n-draft-s',
    draftB: 'n-draft-b',
    betaRoot: 'n-beta-root',
  },
  fileLogo: 'file-logo',
  fileSound: 'file-sound',
  fileBeta: 'file-beta',
} as const;

export const hosts = {
  alpha: 'alpha.test',
  alphaApi: 'api.alpha.test',
  beta: 'beta.test',
  unknown: 'nowhere.test',
};

export interface World {
  filesDir: string;
}

export async function seedWorld(db: Db): Promise<World> {
  const hash = await hashPassword(PASSWORD);
  const ts = { createdAt: T0, updatedAt: T0 };

  await db
    .insertInto('contexts')
    .values([
      {
        id: ids.ctxA,
        alias: 'alpha',
        name: 'Alpha Academy',
        description: 'First tenant',
        hosts: JSON.stringify({ app: 'https://alpha.test', api: 'https://api.alpha.test' }),
        assets: JSON.stringify({
          logo: `/api/files/${ids.fileLogo}/download`,
          colors: { primary: '#112233', secondary: '#445566' },
        }),
        metas: JSON.stringify({ title: 'Alpha' }),
        settings: JSON.stringify({
          defaultLocale: 'fr',
          login: {
            internal: true,
            oidc: {
              label: 'Alpha SSO',
              issuer: 'https://idp.alpha.test',
              clientId: 'alpha',
              clientSecret: 'SUPER-SECRET-VALUE',
            },
          },
          requiredDatas: true,
          legal: { cgu: { content: '<p>Terms</p>', version: '2', date: '2026-01-01' }, rgpd: null },
        }),
        isGeneric: 0,
        ...ts,
      },
      {
        id: ids.ctxB,
        alias: 'beta',
        name: 'Beta School',
        description: null,
        hosts: '{}',
        assets: '{}',
        metas: '{}',
        settings: JSON.stringify({ requiredDatas: false }),
        isGeneric: 0,
        ...ts,
      },
      {
        id: ids.ctxGeneric,
        alias: 'generic',
        name: 'Parcours',
        description: null,
        hosts: '{}',
        assets: '{}',
        metas: '{}',
        settings: '{}',
        isGeneric: 1,
        ...ts,
      },
    ])
    .execute();
  await db
    .insertInto('contextHostnames')
    .values([
      { hostname: hosts.alpha, contextId: ids.ctxA },
      { hostname: hosts.alphaApi, contextId: ids.ctxA },
      { hostname: hosts.beta, contextId: ids.ctxB },
    ])
    .execute();

  const user = (id: string, contextId: string, email: string, extra: Record<string, unknown> = {}) => ({
    id,
    contextId,
    email,
    username: null,
    firstname: null,
    lastname: null,
    birthday: null,
    avatarId: null,
    passwordHash: hash,
    tincanIdentifier: null,
    preferredLocale: null,
    oidcSubject: null,
    tokensValidAfter: null,
    // Multi-row inserts on SQLite turn a missing column into NULL, not its default: list them all.
    legal: '{}',
    ...ts,
    ...extra,
  });
  await db
    .insertInto('users')
    .values([
      user(ids.learnerA, ids.ctxA, 'anna@example.test', {
        username: 'anna',
        firstname: 'Anna',
        lastname: 'Martin',
        birthday: '2000-02-02',
        legal: JSON.stringify({ cguAcceptedVersion: '2', cguAcceptedAt: T0 }),
        preferredLocale: 'fr',
      }),
      user(ids.learnerB, ids.ctxA, 'bob@example.test', { firstname: 'Bob', lastname: 'Durand' }),
      user(ids.teacher, ids.ctxA, 'teacher@example.test', { firstname: 'Tess', lastname: 'Teacher' }),
      user(ids.admin, ids.ctxA, 'admin@example.test', { username: 'root' }),
      // Same e-mail as learner A, other tenant: accounts never cross tenants.
      user(ids.betaUser, ids.ctxB, 'anna@example.test', { firstname: 'Anna', lastname: 'Beta' }),
    ])
    .execute();

  await db.insertInto('roles').values({ id: ids.roleAdmin, name: 'admin', description: null }).execute();
  await db
    .insertInto('roleUsers')
    .values({
      id: 'ru-1',
      roleId: ids.roleAdmin,
      principalType: 'USER',
      principalId: ids.admin,
      scopeId: ids.ctxA,
    })
    .execute();
  await db
    .insertInto('companies')
    .values({ id: ids.company, contextId: ids.ctxA, name: 'Acme', avatarId: null, createdAt: T0 })
    .execute();
  await db
    .insertInto('companyUsers')
    .values([
      { id: 'cou-1', companyId: ids.company, userId: ids.teacher, role: 'TEACHER' },
      { id: 'cou-2', companyId: ids.company, userId: ids.learnerA, role: 'STUDENT' },
    ])
    .execute();

  await db
    .insertInto('courseTypes')
    .values({
      id: ids.type,
      contextId: ids.ctxA,
      title: 'Standard',
      description: null,
      settings: JSON.stringify({ hints: true }),
    })
    .execute();
  await db
    .insertInto('courseCategories')
    .values([
      { id: ids.category, contextId: ids.ctxA, title: 'Maths', icon: 'calc', backgroundImageId: null },
      { id: 'cat-beta', contextId: ids.ctxB, title: 'Beta cat', icon: null, backgroundImageId: null },
    ])
    .execute();
  await db
    .insertInto('courseCompetencies')
    .values([
      {
        id: ids.compRoot,
        contextId: ids.ctxA,
        parentId: null,
        title: 'Numbers',
        icon: 'num',
        order: 1,
        isGeneric: 1,
      },
      {
        id: ids.compChild,
        contextId: ids.ctxA,
        parentId: ids.compRoot,
        title: 'Fractions',
        icon: null,
        order: 2,
        isGeneric: 0,
      },
      {
        id: 'comp-beta',
        contextId: ids.ctxB,
        parentId: null,
        title: 'Beta',
        icon: null,
        order: 1,
        isGeneric: 0,
      },
    ])
    .execute();

  const course = (
    id: string,
    contextId: string,
    title: string,
    state: string,
    categoryId: string,
    typeId: string | null,
  ) => ({
    id,
    contextId,
    title,
    description: null,
    reference: null,
    state,
    categoryId,
    typeId,
    video: null,
    ...ts,
  });
  await db
    .insertInto('courses')
    .values([
      course(ids.coursePub, ids.ctxA, 'Fractions 101', 'PUBLISHED', ids.category, ids.type),
      course(ids.courseDraft, ids.ctxA, 'Secret draft', 'DRAFT', ids.category, null),
      course(ids.courseBeta, ids.ctxB, 'Beta course', 'PUBLISHED', 'cat-beta', null),
    ])
    .execute();
  const n = ids.node;
  const node = (
    id: string,
    courseId: string,
    parentId: string | null,
    type: string,
    order: number,
    title: string | null = null,
  ) => ({
    id,
    courseId,
    parentId,
    type,
    order,
    title,
    blockId: null,
  });
  await db
    .insertInto('courseNodes')
    .values([
      node(n.root, ids.coursePub, null, 'root', 0),
      node(n.s2, ids.coursePub, n.root, 'container', 2, 'Section 2'),
      node(n.s1, ids.coursePub, n.root, 'container', 1, 'Section 1'),
      node(n.b1, ids.coursePub, n.s1, 'block', 1),
      node(n.b2, ids.coursePub, n.s1, 'block', 2),
      node(n.m, ids.coursePub, n.s2, 'multiblock', 1),
      node(n.m1, ids.coursePub, n.m, 'block', 1),
      node(n.m2, ids.coursePub, n.m, 'block', 2),
      node(n.b3, ids.coursePub, n.s2, 'block', 2),
      node(n.draftRoot, ids.courseDraft, null, 'root', 0),
      node(n.draftS, ids.courseDraft, n.draftRoot, 'container', 1),
      node(n.draftB, ids.courseDraft, n.draftS, 'block', 1),
      node(n.betaRoot, ids.courseBeta, null, 'root', 0),
    ])
    .execute();

  await db
    .insertInto('programs')
    .values([
      {
        id: ids.progPub,
        contextId: ids.ctxA,
        name: 'Maths path',
        description: null,
        icon: null,
        state: 'PUBLISHED',
        tags: JSON.stringify(['maths']),
        ...ts,
      },
      {
        id: ids.progDraft,
        contextId: ids.ctxA,
        name: 'Draft path',
        description: null,
        icon: null,
        state: 'DRAFT',
        tags: '[]',
        ...ts,
      },
      {
        id: ids.progBeta,
        contextId: ids.ctxB,
        name: 'Beta path',
        description: null,
        icon: null,
        state: 'PUBLISHED',
        tags: '[]',
        ...ts,
      },
    ])
    .execute();
  await db
    .insertInto('programCourses')
    .values([
      { id: ids.pcPub, programId: ids.progPub, courseId: ids.coursePub, order: 1 },
      { id: ids.pcDraftCourse, programId: ids.progPub, courseId: ids.courseDraft, order: 2 },
      { id: ids.pcInDraftProg, programId: ids.progDraft, courseId: ids.coursePub, order: 1 },
      { id: ids.pcBeta, programId: ids.progBeta, courseId: ids.courseBeta, order: 1 },
    ])
    .execute();

  const klass = (
    id: string,
    contextId: string,
    name: string,
    startAt: string | null,
    expireAt: string | null,
  ) => ({
    id,
    contextId,
    name,
    startAt,
    expireAt,
    companyId: null,
    settings: JSON.stringify({ mobile: { allowed: true } }),
    ...ts,
  });
  await db
    .insertInto('classes')
    .values([
      klass(ids.classCurrent, ids.ctxA, 'B current', PAST, FUTURE),
      klass(ids.classExpired, ids.ctxA, 'A expired', '2024-01-01T00:00:00.000Z', EXPIRED),
      klass(ids.classB, ids.ctxA, 'C of Bob', PAST, null),
      klass(ids.classBeta, ids.ctxB, 'Beta class', PAST, FUTURE),
    ])
    .execute();
  await db
    .insertInto('classPrograms')
    .values([
      {
        id: ids.cpCurrentPub,
        classId: ids.classCurrent,
        programId: ids.progPub,
        order: 1,
        startAt: null,
        expireAt: null,
        openingBoundaries: JSON.stringify({ from: PAST }),
      },
      {
        id: ids.cpCurrentDraft,
        classId: ids.classCurrent,
        programId: ids.progDraft,
        order: 2,
        startAt: null,
        expireAt: null,
        openingBoundaries: '{}',
      },
      {
        id: ids.cpExpired,
        classId: ids.classExpired,
        programId: ids.progPub,
        order: 1,
        startAt: null,
        expireAt: null,
        openingBoundaries: '{}',
      },
      {
        id: ids.cpB,
        classId: ids.classB,
        programId: ids.progPub,
        order: 1,
        startAt: null,
        expireAt: null,
        openingBoundaries: '{}',
      },
      {
        id: ids.cpBeta,
        classId: ids.classBeta,
        programId: ids.progBeta,
        order: 1,
        startAt: null,
        expireAt: null,
        openingBoundaries: '{}',
      },
    ])
    .execute();
  await db
    .insertInto('classUsers')
    .values([
      {
        id: 'cu-a-current',
        classId: ids.classCurrent,
        userId: ids.learnerA,
        role: 'STUDENT',
        createdAt: '2026-01-02T00:00:00.000Z',
      },
      {
        id: 'cu-a-expired',
        classId: ids.classExpired,
        userId: ids.learnerA,
        role: 'STUDENT',
        createdAt: '2026-01-01T00:00:00.000Z',
      },
      {
        id: 'cu-teacher-current',
        classId: ids.classCurrent,
        userId: ids.teacher,
        role: 'TEACHER',
        createdAt: T0,
      },
      { id: 'cu-b', classId: ids.classB, userId: ids.learnerB, role: 'STUDENT', createdAt: T0 },
      { id: 'cu-beta', classId: ids.classBeta, userId: ids.betaUser, role: 'STUDENT', createdAt: T0 },
    ])
    .execute();

  const lesson = (
    id: string,
    contextId: string,
    userId: string,
    classId: string,
    classProgramId: string,
    programCourseId: string,
    courseId: string,
    extra: Record<string, unknown> = {},
  ) => ({
    id,
    contextId,
    userId,
    classId,
    classProgramId,
    programCourseId,
    courseId,
    classStepProgramId: null,
    currentNodeId: null,
    timeLimit: null,
    state: 'AVAILABLE',
    progress: null,
    certificationRef: null,
    startAt: null,
    startedAt: null,
    endedAt: null,
    scoring: '{"global":{"actual":0,"max":0}}',
    ...ts,
    ...extra,
  });
  await db
    .insertInto('lessons')
    .values([
      lesson(
        ids.lessonA1,
        ids.ctxA,
        ids.learnerA,
        ids.classCurrent,
        ids.cpCurrentPub,
        ids.pcPub,
        ids.coursePub,
        {
          startedAt: '2026-02-01T00:00:00.000Z',
          certificationRef: 'CERT-1',
          progress: 'ONGOING',
          scoring: JSON.stringify({ global: { actual: 3, max: 4 } }),
          createdAt: '2026-01-05T00:00:00.000Z',
        },
      ),
      lesson(
        ids.lessonA2,
        ids.ctxA,
        ids.learnerA,
        ids.classExpired,
        ids.cpExpired,
        ids.pcPub,
        ids.coursePub,
        {
          startedAt: '2026-03-01T00:00:00.000Z',
          createdAt: '2026-01-04T00:00:00.000Z',
        },
      ),
      lesson(ids.lessonB1, ids.ctxA, ids.learnerB, ids.classB, ids.cpB, ids.pcPub, ids.coursePub),
      lesson(ids.lessonBeta, ids.ctxB, ids.betaUser, ids.classBeta, ids.cpBeta, ids.pcBeta, ids.courseBeta),
    ])
    .execute();
  const page = (
    id: string,
    lessonId: string,
    nodeId: string,
    attempt: number,
    state: string,
    progress: string | null,
  ) => ({
    id,
    lessonId,
    nodeId,
    attempt,
    state,
    progress,
    sectionId: null,
    timeLimit: null,
    openedAt: null,
    answeredAt: null,
    ...ts,
  });
  await db
    .insertInto('lessonPages')
    .values([
      page('p-1', ids.lessonA1, n.b1, 1, 'ACTIVE', 'COMPLETED'),
      page('p-2', ids.lessonA1, n.b2, 1, 'ARCHIVED', 'COMPLETED'),
      page('p-3', ids.lessonA1, n.b2, 2, 'ACTIVE', 'ONGOING'),
      page('p-4', ids.lessonA1, n.m1, 1, 'ACTIVE', 'COMPLETED'),
      page('p-5', ids.lessonB1, n.b1, 1, 'ACTIVE', 'COMPLETED'),
    ])
    .execute();

  const filesDir = mkdtempSync(path.join(tmpdir(), 'parcours-files-'));
  mkdirSync(path.join(filesDir, 'alpha'), { recursive: true });
  writeFileSync(path.join(filesDir, 'alpha', 'logo.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  writeFileSync(path.join(filesDir, 'alpha', 'sound.mp3'), Buffer.from('ID3-fake-sound'));
  const file = (
    id: string,
    contextId: string,
    name: string,
    type: string,
    fileType: string,
    storagePath: string,
  ) => ({
    id,
    contextId,
    name,
    type,
    fileType,
    storagePath,
    libraryId: null,
    ownerId: null,
    icon: null,
    sha256: null,
    size: 8,
    ...ts,
  });
  await db
    .insertInto('files')
    .values([
      file(ids.fileLogo, ids.ctxA, 'logo.png', 'image/png', 'image', 'alpha/logo.png'),
      file(ids.fileSound, ids.ctxA, 'sound.mp3', 'audio/mpeg', 'audio', 'alpha/sound.mp3'),
      file(ids.fileBeta, ids.ctxB, 'beta.png', 'image/png', 'image', 'alpha/logo.png'),
    ])
    .execute();
  return { filesDir };
}
