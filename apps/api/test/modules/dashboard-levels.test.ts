import type {
  CategoryProgressAttributes,
  CompetencyLevelAttributes,
} from '@parcours/domain/dashboard-levels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, login, startTestApp } from '../helpers/app';
import type { ErrorDoc, TestContext } from '../helpers/app';
import { hosts, ids } from '../helpers/fixtures';

/**
 * GET /api/competency-levels and /api/category-progress (issue 9, decision 0008) on pages whose
 * points are known: live graded pages count; archived attempts, unanswered pages, pages without
 * points, blocks without competency and other learners' or tenants' pages never do.
 */
let ctx: TestContext;
let anna: string;
let bob: string;
let admin: string;
let beta: string;

const TS = { createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };

interface PageSpec {
  lessonId: string;
  blockId: string;
  actual: number;
  max: number;
  answered?: boolean;
  state?: 'ACTIVE' | 'ARCHIVED';
}

const PAGES: PageSpec[] = [
  // Anna: the child competency 3/4, the root's own block 1/6 → root 4/10.
  { lessonId: ids.lessonA1, blockId: 'dl-blk-child', actual: 3, max: 4 },
  { lessonId: ids.lessonA1, blockId: 'dl-blk-root', actual: 1, max: 6 },
  { lessonId: ids.lessonA1, blockId: 'dl-blk-child', actual: 0, max: 4, state: 'ARCHIVED' },
  { lessonId: ids.lessonA1, blockId: 'dl-blk-child', actual: 0, max: 4, answered: false },
  { lessonId: ids.lessonA1, blockId: 'dl-blk-none', actual: 5, max: 5 },
  { lessonId: ids.lessonA1, blockId: 'dl-blk-root', actual: 0, max: 0 },
  // Bob: 4/4 on the child.
  { lessonId: ids.lessonB1, blockId: 'dl-blk-child', actual: 4, max: 4 },
];

beforeAll(async () => {
  ctx = await startTestApp();
  const db = ctx.tdb.db;
  const block = (id: string, competencyId: string | null) => ({
    id,
    contextId: ids.ctxA,
    title: id,
    type: 'exercice',
    categoryId: null,
    competencyId,
    ...TS,
  });
  await db
    .insertInto('courseBlocks')
    .values([
      block('dl-blk-root', ids.compRoot),
      block('dl-blk-child', ids.compChild),
      block('dl-blk-none', null),
    ])
    .execute();
  await db
    .insertInto('courseNodes')
    .values(
      PAGES.map((p, i) => ({
        id: `dl-node-${i}`,
        courseId: ids.coursePub,
        parentId: ids.node.s1,
        type: 'block',
        blockId: p.blockId,
        order: 200 + i,
        title: null,
      })),
    )
    .execute();
  await db
    .insertInto('lessonPages')
    .values(
      PAGES.map((p, i) => ({
        id: `dl-page-${i}`,
        lessonId: p.lessonId,
        nodeId: `dl-node-${i}`,
        sectionId: null,
        attempt: 1,
        state: p.state ?? 'ACTIVE',
        progress: p.answered === false ? 'ONGOING' : 'COMPLETED',
        scoreActual: p.actual,
        scoreMax: p.max,
        timeLimit: null,
        openedAt: '2026-03-01T00:00:00.000Z',
        answeredAt: p.answered === false ? null : '2026-03-01T00:01:00.000Z',
        ...TS,
      })),
    )
    .execute();
  // Two more categories for Anna: one started without graded pages, one never started.
  await db
    .insertInto('courseCategories')
    .values([
      {
        id: 'dl-cat-started',
        contextId: ids.ctxA,
        title: 'Accueil',
        icon: 'handshake',
        backgroundImageId: null,
      },
      { id: 'dl-cat-unstarted', contextId: ids.ctxA, title: 'Zoologie', icon: null, backgroundImageId: null },
    ])
    .execute();
  const course = (id: string, categoryId: string) => ({
    id,
    contextId: ids.ctxA,
    title: id,
    description: null,
    reference: null,
    state: 'PUBLISHED',
    categoryId,
    typeId: ids.type,
    video: null,
    ...TS,
  });
  await db
    .insertInto('courses')
    .values([
      course('dl-course-started', 'dl-cat-started'),
      course('dl-course-unstarted', 'dl-cat-unstarted'),
    ])
    .execute();
  const lesson = (id: string, courseId: string, startedAt: string | null) => ({
    id,
    contextId: ids.ctxA,
    userId: ids.learnerA,
    classId: ids.classCurrent,
    classProgramId: ids.cpCurrentPub,
    programCourseId: null,
    courseId,
    classStepProgramId: null,
    currentNodeId: null,
    timeLimit: null,
    state: 'AVAILABLE',
    progress: null,
    certificationRef: null,
    startAt: null,
    startedAt,
    endedAt: null,
    ...TS,
  });
  await db
    .insertInto('lessons')
    .values([
      lesson('dl-lesson-started', 'dl-course-started', '2026-03-02T00:00:00.000Z'),
      lesson('dl-lesson-unstarted', 'dl-course-unstarted', null),
    ])
    .execute();
  [anna, bob, admin, beta] = await Promise.all([
    login(ctx.app, 'anna@example.test'),
    login(ctx.app, 'bob@example.test'),
    login(ctx.app, 'admin@example.test'),
    login(ctx.app, 'anna@example.test', hosts.beta),
  ]);
});

afterAll(async () => {
  await ctx?.close();
});

interface Doc<A> {
  data: { type: string; id: string; attributes: A; relationships?: Record<string, { data: unknown }> }[];
  meta: { total: number };
}

async function read<A>(path: string, token: string, host = hosts.alpha): Promise<Doc<A>> {
  const res = await get(ctx.app, path, token, host);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Doc<A>;
}

const levelRows = (doc: Doc<CompetencyLevelAttributes>) =>
  doc.data.map((r) => [
    r.id,
    r.attributes.depth,
    r.attributes.actual,
    r.attributes.max,
    r.attributes.ratio,
    r.attributes.medal,
    r.attributes.color,
  ]);

describe('GET /api/competency-levels', () => {
  it("gives the learner's medal per competency, children rolled into their parent", async () => {
    const doc = await read<CompetencyLevelAttributes>('/api/competency-levels', anna);
    expect(doc.data.every((r) => r.type === 'competency-levels')).toBe(true);
    expect(levelRows(doc)).toEqual([
      // docs/product.md §4 medal colour: 0.4 danger, 0.75 success. The root is generic: its child, at the
      // reporting level (1, docs/product.md §9), still has its row.
      [ids.compRoot, 0, 4, 10, 0.4, 'bronze', 'danger'],
      [ids.compChild, 1, 3, 4, 0.75, 'gold', 'success'],
    ]);
    const child = doc.data[1]!;
    expect(child.attributes).toMatchObject({
      competencyId: ids.compChild,
      parentId: ids.compRoot,
      title: 'Fractions',
      isGeneric: false,
    });
    expect(child.relationships?.parent?.data).toEqual({ type: 'competency-levels', id: ids.compRoot });
    expect(doc.data[0]!.attributes).toMatchObject({ icon: 'num', isGeneric: true, parentId: null });
    expect(doc.meta.total).toBe(2);
  });

  it('accepts filter[userId] naming oneself or me', async () => {
    const mine = levelRows(await read<CompetencyLevelAttributes>('/api/competency-levels', anna));
    expect(
      levelRows(
        await read<CompetencyLevelAttributes>(`/api/competency-levels?filter[userId]=${ids.learnerA}`, anna),
      ),
    ).toEqual(mine);
    expect(
      levelRows(await read<CompetencyLevelAttributes>('/api/competency-levels?filter[userId]=me', anna)),
    ).toEqual(mine);
  });

  it("is each learner's own: Bob sees his points, not Anna's", async () => {
    expect(levelRows(await read<CompetencyLevelAttributes>('/api/competency-levels', bob))).toEqual([
      [ids.compRoot, 0, 4, 4, 1, 'gold', 'success'],
      [ids.compChild, 1, 4, 4, 1, 'gold', 'success'],
    ]);
  });

  it('shows a learner without results every competency, no medal', async () => {
    expect(levelRows(await read<CompetencyLevelAttributes>('/api/competency-levels', admin))).toEqual([
      [ids.compRoot, 0, 0, 0, 0, null, 'danger'],
      [ids.compChild, 1, 0, 0, 0, null, 'danger'],
    ]);
  });

  it("stays in the tenant: the beta learner sees beta's competencies only", async () => {
    const doc = await read<CompetencyLevelAttributes>('/api/competency-levels', beta, hosts.beta);
    expect(levelRows(doc)).toEqual([['comp-beta', 0, 0, 0, 0, null, 'danger']]);
  });
});

describe('GET /api/category-progress', () => {
  it('lists the started categories with their percent out of 100, not the unstarted one', async () => {
    const doc = await read<CategoryProgressAttributes>('/api/category-progress', anna);
    expect(
      doc.data.map((r) => [
        r.type,
        r.id,
        r.attributes.percent,
        r.attributes.level,
        r.attributes.startedLessons,
      ]),
    ).toEqual([
      ['category-progress', 'dl-cat-started', 0, 'none', 1],
      ['category-progress', ids.category, 60, 'silver', 2],
    ]);
    expect(doc.data[1]!.attributes).toMatchObject({ title: 'Maths', icon: 'calc', actual: 9, max: 15 });
  });

  it("is each learner's own", async () => {
    const doc = await read<CategoryProgressAttributes>('/api/category-progress', bob);
    // Bob's lesson was never started: no job yet.
    expect(doc.data).toEqual([]);
  });
});

describe('authorization', () => {
  it.each(['/api/competency-levels', '/api/category-progress'])(
    '%s: another learner is 403, administrators included',
    async (path) => {
      for (const token of [anna, admin]) {
        const res = await get(ctx.app, `${path}?filter[userId]=${ids.learnerB}`, token);
        expect(res.statusCode).toBe(403);
        expect((res.json() as ErrorDoc).errors[0]?.code).toBe('Forbidden');
      }
    },
  );

  it.each(['/api/competency-levels', '/api/category-progress'])('%s: anonymous is 401', async (path) => {
    const res = await get(ctx.app, path);
    expect(res.statusCode).toBe(401);
  });

  it.each(['/api/competency-levels', '/api/category-progress'])(
    '%s: a token of another tenant is refused',
    async (path) => {
      const res = await get(ctx.app, path, anna, hosts.beta);
      expect([401, 403]).toContain(res.statusCode);
    },
  );

  it.each([
    '/api/competency-levels?filter[other]=x',
    '/api/category-progress?page[size]=5',
    '/api/competency-levels?filter[userId]=',
  ])('%s: an unknown or empty parameter is 400', async (path) => {
    const res = await get(ctx.app, path, anna);
    expect(res.statusCode).toBe(400);
  });
});
