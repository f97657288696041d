import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { BlockSolution } from '@parcours/domain/exercises/solution';
import { buildApp } from '../../src/app';
import { normaliseFreeAnswer } from '../../src/content/format';
import { importFolder } from '../../src/content/importer';
import { parseJson } from '../../src/db/schema';
import { DEMO, walkJson } from '../content/helpers';
import { testEnv } from '../helpers/app';
import type { ErrorDoc } from '../helpers/app';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';
import type { PageDoc } from '../helpers/player';

/**
 * No pre-answer page document of any demo block carries its expected answers, validators,
 * correctness or answer-tied feedback. Every course of every demo tenant gets a lesson for that
 * tenant's demo learner; the test walks each lesson through the real API (opening each page,
 * unlocking every hint, choosing every child of a multiblock), checks the document BEFORE the
 * page is answered, then answers it empty and moves on.
 */

const FORBIDDEN_KEYS = new Set([
  'expected',
  'correct',
  'incorrect',
  'isCorrect',
  'solution',
  'validators',
  'accept',
  'tolerance',
  'answers',
  'positions',
  'feedback',
  'feedbacks',
  'match',
  'when',
  'correction',
  'answerRatios',
  'outcome',
]);

let t: TestDb;
let app: FastifyInstance;
let filesDir: string;
const tokens = new Map<string, string>();
const hostOf: Record<string, string> = { fr: 'localhost', en: 'en.localhost' };
let checkedPages = 0;
const checkedBlocks = new Set<string>();
let solutions: Map<string, BlockSolution>;

beforeAll(async () => {
  t = await createTestDb();
  filesDir = mkdtempSync(path.join(tmpdir(), 'parcours-leak-'));
  const report = await importFolder(t.db, DEMO, { filesDir });
  expect(report.errors).toEqual([]);
  app = await buildApp({ env: testEnv(), db: t.db, dbKind: t.kind, filesDir, logger: false });
  await app.ready();
  const blocks = await t.db.selectFrom('courseBlocks').select(['id', 'solution']).execute();
  solutions = new Map(
    blocks.map((b) => [b.id, parseJson<BlockSolution>(b.solution, { feedbacks: [], validators: [] })]),
  );
  for (const alias of ['fr', 'en']) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { host: hostOf[alias]! },
      payload: { email: 'learner@example.com', password: 'Learner#2026' },
    });
    expect(res.statusCode).toBe(200);
    tokens.set(alias, (res.json() as { access_token: string }).access_token);
  }
});
afterAll(async () => {
  await app?.close();
  await t?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

function secretsOf(solution: BlockSolution): Set<string> {
  const secrets = new Set<string>();
  for (const f of solution.feedbacks) secrets.add(f.message);
  for (const v of solution.validators) {
    const fb = v.feedbacks;
    if (fb.correct) secrets.add(fb.correct);
    if (fb.incorrect) secrets.add(fb.incorrect);
    for (const m of Object.values(fb.choices ?? {})) secrets.add(m);
    for (const a of fb.answers ?? []) {
      secrets.add(a.message);
      for (const m of a.match) secrets.add(m);
    }
    if (v.type === 'free-answer' && v.expected.kind === 'text')
      for (const a of v.expected.accept) secrets.add(a);
  }
  return secrets;
}

/** The leaks of one pre-answer page document, as readable paths. */
function leaksOf(page: PageDoc['data']): string[] {
  const leaks: string[] = [];
  const a = page.attributes;
  if (a.results !== null) leaks.push('results before the answer');
  if (a.inputs !== null) leaks.push('inputs before the answer');
  // Keys: the block, node, children and hints parts (courseTypeSettings.feedbacks is a switch, not a feedback).
  for (const part of ['block', 'node', 'children', 'hints'] as const) {
    walkJson(a[part], (key, _v, at) => {
      if (key !== null && FORBIDDEN_KEYS.has(key)) leaks.push(`${part}${at.slice(1)}`);
    });
  }
  const blockId = a.block?.id;
  const secrets = blockId ? secretsOf(solutions.get(blockId)!) : new Set<string>();
  walkJson(page, (_k, value, at) => {
    if (typeof value === 'string' && (secrets.has(value) || secrets.has(normaliseFreeAnswer(value))))
      leaks.push(`secret at ${at}`);
  });
  // The expected-answer structures themselves, wherever they would hide.
  const text = JSON.stringify(page);
  for (const v of blockId ? solutions.get(blockId)!.validators : []) {
    if (
      v.type === 'drag-n-drop' &&
      v.expected.some((l) => l.length > 0) &&
      text.includes(JSON.stringify(v.expected))
    )
      leaks.push('drag-n-drop expected lists');
    if (
      v.type === 'pick-words' &&
      v.expected.positions.length > 1 &&
      text.includes(JSON.stringify(v.expected.positions))
    )
      leaks.push('pick-words positions');
    if (v.type === 'free-answer' && v.expected.kind === 'number' && text.includes(`"tolerance"`))
      leaks.push('free-answer tolerance');
  }
  return leaks;
}

/** Walks a lesson to its end; at a multiblock it takes child `pick` (one choice per multiblock, decision 0009). */
async function walkLesson(alias: string, lessonId: string, pick: number): Promise<string[]> {
  const headers = { host: hostOf[alias]!, authorization: `Bearer ${tokens.get(alias)!}` };
  const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const base = `/api/lessons/${lessonId}/pages`;
  const leaks: string[] = [];
  const check = async (page: PageDoc['data']) => {
    leaks.push(
      ...leaksOf(page).map((l) => `${page.attributes.block?.title ?? page.attributes.node.title}: ${l}`),
    );
    checkedPages++;
    if (page.attributes.block) checkedBlocks.add(page.attributes.block.id);
    // The page's resource nodes (docs/product.md §3 "a block holds resources") are read, never pages.
    const listed = await send('GET', `/api/pages/${page.id}/resources?lessonId=${lessonId}`);
    expect(listed.statusCode).toBe(200);
    for (const r of (listed.json() as { data: { attributes: { block: { id: string } | null } }[] }).data) {
      if (!r.attributes.block) continue;
      checkedBlocks.add(r.attributes.block.id);
      const secrets = secretsOf(solutions.get(r.attributes.block.id)!);
      walkJson(r, (key, value, at) => {
        if (key !== null && FORBIDDEN_KEYS.has(key)) leaks.push(`resource ${at}`);
        if (typeof value === 'string' && secrets.has(value)) leaks.push(`resource secret at ${at}`);
      });
    }
    // Unlock every hint, then look again: hints are never answers.
    for (let i = 0; i < page.attributes.hints.remaining; i++) {
      const h = await send('POST', `${base}/current/hints`, { pageId: page.id });
      expect(h.statusCode).toBe(200);
    }
    if (page.attributes.hints.remaining > 0) {
      const again = (await send('GET', `${base}/current?pageId=${page.id}`)).json() as PageDoc;
      leaks.push(...leaksOf(again.data).map((l) => `${page.attributes.block?.title}: after hints: ${l}`));
    }
    const done = await send('PATCH', `${base}/current`, { pageId: page.id });
    expect(done.statusCode, JSON.stringify(done.json())).toBe(200);
  };
  let res = await send('GET', `${base}/current`);
  for (let guard = 0; guard < 100; guard++) {
    expect(res.statusCode, res.body).toBe(200);
    let page = (res.json() as PageDoc).data;
    if (page.attributes.node.type === 'multiblock') {
      const chooser = page;
      const child = chooser.attributes.children[pick % chooser.attributes.children.length]!;
      const chosen = await send('POST', `${base}/current/choose`, {
        pageId: chooser.id,
        nodeId: child.nodeId,
      });
      expect(chosen.statusCode).toBe(200);
      page = (chosen.json() as PageDoc).data;
      if (page.attributes.timeLimit) await send('POST', `${base}/current/start`, { pageId: page.id });
      await check(page);
    } else {
      await check(page);
    }
    res = await send('POST', `${base}/next`, { fromPageId: page.id });
    if (res.statusCode === 409 && (res.json() as ErrorDoc).errors[0]?.code === 'NO_LESSON_PAGE_AVAILABLE')
      break;
  }
  return leaks;
}

describe('no pre-answer page of the demo content carries its answers', () => {
  it('walks every block of every demo course through the player API', async () => {
    const courses = await t.db
      .selectFrom('courses as c')
      .innerJoin('contexts as x', 'x.id', 'c.contextId')
      .select(['c.id', 'c.title', 'x.alias', 'x.id as contextId'])
      .execute();
    expect(courses.length).toBeGreaterThanOrEqual(5);
    const leaks: string[] = [];
    for (const course of courses) {
      const learner = await t.db
        .selectFrom('users')
        .select('id')
        .where('contextId', '=', course.contextId)
        .where('email', '=', 'learner@example.com')
        .executeTakeFirstOrThrow();
      const cls = await t.db
        .selectFrom('classUsers as cu')
        .innerJoin('classes as k', 'k.id', 'cu.classId')
        .select('k.id')
        .where('cu.userId', '=', learner.id)
        .executeTakeFirstOrThrow();
      // A multiblock takes one choice per lesson: one fresh lesson per child position, so every block is reached.
      const nodes = await t.db
        .selectFrom('courseNodes')
        .select(['id', 'type', 'parentId'])
        .where('courseId', '=', course.id)
        .execute();
      const widest = Math.max(
        1,
        ...nodes
          .filter((n) => n.type === 'multiblock')
          .map((m) => nodes.filter((n) => n.parentId === m.id).length),
      );
      for (let pick = 0; pick < widest; pick++) {
        const lessonId = `leak-${course.id}-${pick}`;
        const now = new Date().toISOString();
        // A fresh lesson of the whole course (every section), so every block is reached.
        await t.db
          .insertInto('lessons')
          .values({
            id: lessonId,
            contextId: course.contextId,
            userId: learner.id,
            classId: cls.id,
            classProgramId: null,
            classStepProgramId: null,
            courseId: course.id,
            programCourseId: null,
            currentNodeId: null,
            enabledSectionIds: '[]',
            timeLimit: null,
            state: 'AVAILABLE',
            progress: null,
            certificationRef: null,
            startAt: null,
            startedAt: null,
            endedAt: null,
            createdAt: now,
            updatedAt: now,
          })
          .execute();
        leaks.push(...(await walkLesson(course.alias, lessonId, pick)).map((l) => `${course.title}: ${l}`));
      }
    }
    expect(leaks).toEqual([]);
    const placed = await t.db
      .selectFrom('courseNodes')
      .select('blockId')
      .where('type', '=', 'block')
      .where('blockId', 'is not', null)
      .execute();
    expect([...checkedBlocks].sort()).toEqual([...new Set(placed.map((p) => p.blockId!))].sort());
    expect(checkedPages).toBeGreaterThanOrEqual(placed.length);
  });

  it('node mode reads (course-blocks, course-nodes with children.block) carry no answers either', async () => {
    const headers = { host: 'localhost', authorization: `Bearer ${tokens.get('fr')!}` };
    const res = await app.inject({
      method: 'GET',
      url: '/api/course-nodes?include=children.block.terms&page[size]=100',
      headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      data: unknown[];
      included?: { type: string; id: string; attributes: Record<string, unknown> }[];
    };
    const blocks = (body.included ?? []).filter((r) => r.type === 'course-blocks');
    expect(blocks.length).toBeGreaterThan(5);
    const leaks: string[] = [];
    for (const b of blocks) {
      const single = await app.inject({
        method: 'GET',
        url: `/api/course-blocks/${b.id}?include=terms`,
        headers,
      });
      expect(single.statusCode).toBe(200);
      const secrets = secretsOf(solutions.get(b.id)!);
      walkJson(single.json(), (key, value, at) => {
        if (key !== null && FORBIDDEN_KEYS.has(key)) leaks.push(`${b.id} key ${at}`);
        if (typeof value === 'string' && (secrets.has(value) || secrets.has(normaliseFreeAnswer(value))))
          leaks.push(`${b.id} secret ${at}`);
      });
      // Hint texts are unlocked (and paid for) in the player only.
      expect(JSON.stringify(single.json())).not.toContain('"hints"');
    }
    expect(leaks).toEqual([]);
  });

  it('serves a tenant its own tincan modules only', async () => {
    // A module folder's block (the packages' blocks, issue 31, have a `package` instead).
    const block = (
      await t.db
        .selectFrom('courseBlocks')
        .select(['content', 'contextId'])
        .where('type', '=', 'tincan')
        .execute()
    ).find((b) =>
      (JSON.parse(b.content) as { tincan?: { url?: string } }).tincan?.url?.startsWith('/api/tincan/'),
    )!;
    const url = (JSON.parse(block.content) as { tincan: { url: string } }).tincan.url;
    const ctx = await t.db
      .selectFrom('contexts')
      .select('alias')
      .where('id', '=', block.contextId)
      .executeTakeFirstOrThrow();
    const own = await app.inject({ method: 'GET', url, headers: { host: hostOf[ctx.alias]! } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toContain('text/html');
    // Its own scripts run, but sandboxed in an opaque origin: never with the app's storage.
    const csp = String(own.headers['content-security-policy']);
    expect(csp).toContain('sandbox allow-scripts');
    expect(csp).not.toContain('allow-same-origin');
    expect(csp).toContain("script-src 'self' 'unsafe-inline'");
    const other = await app.inject({
      method: 'GET',
      url,
      headers: { host: hostOf[ctx.alias === 'fr' ? 'en' : 'fr']! },
    });
    expect(other.statusCode).toBe(404);
    const escape = await app.inject({
      method: 'GET',
      url: `/api/tincan/${block.contextId}/../../x`,
      headers: { host: hostOf[ctx.alias]! },
    });
    expect(escape.statusCode).toBe(404);
  });
});
