import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import * as honestScores from '../../../src/db/migrations/0008-honest-scores';
import type { ErrorDoc } from '../../helpers/app';
import type { PageDoc, PlayWorld } from '../../helpers/player';
import { playLogin, player, startPlayWorld } from '../../helpers/player';

/**
 * Issue 10, "Scores a learner must not be able to game" (decision 0009):
 * - 1: every write of the player judges the class and class-program windows on the server's
 *   clock; after the window closed it is refused, nothing is graded, and the lesson is EXPIRED
 *   by the refusing request itself.
 * - 3: one choice per multiblock, decided by the database.
 * Each case takes a lesson of its own, in a class (and class program) of its own inserted here,
 * so that the write under test is the first one to meet the closed window.
 */
let w: PlayWorld;
let peer: FastifyInstance;
let token: string;
let contextId: string;
let courseId: string;
let programId: string;
let count = 0;

beforeAll(async () => {
  w = await startPlayWorld();
  peer = await w.buildPeer();
  token = await playLogin(w.app, 'ann');
  const row = await w.tdb.db
    .selectFrom('lessons')
    .select(['contextId', 'courseId', 'classProgramId'])
    .where('id', '=', w.lessons.ann.practice)
    .executeTakeFirstOrThrow();
  contextId = row.contextId;
  courseId = row.courseId;
  programId = (
    await w.tdb.db
      .selectFrom('classPrograms')
      .select('programId')
      .where('id', '=', row.classProgramId!)
      .executeTakeFirstOrThrow()
  ).programId;
});
afterAll(async () => w?.close());

const doc = (res: LightMyRequestResponse) => (res.json() as PageDoc).data;
const code = (res: LightMyRequestResponse) => (res.json() as ErrorDoc).errors?.[0]?.code;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A practice lesson for ann in a new class and class program. `closesIn` (seconds from the
 * clock) ends the class's window, or only the class program's one.
 */
async function freshLesson(
  window: { closesIn: number; on: 'class' | 'class-program' } | null = null,
): Promise<string> {
  const n = ++count;
  const now = iso(w.clock.t);
  const end = window ? iso(w.clock.t + window.closesIn * 1000) : null;
  const classId = `loophole-class-${n}`;
  const cpId = `loophole-cp-${n}`;
  await w.tdb.db
    .insertInto('classes')
    .values({
      id: classId,
      contextId,
      companyId: null,
      name: `Loophole ${n}`,
      startAt: iso(w.clock.t - 86_400_000),
      expireAt: window?.on === 'class' ? end : iso(w.clock.t + 90 * 86_400_000),
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  await w.tdb.db
    .insertInto('classUsers')
    .values({ id: `loophole-cu-${n}`, classId, userId: w.users.ann, role: 'STUDENT', createdAt: now })
    .execute();
  await w.tdb.db
    .insertInto('classPrograms')
    .values({
      id: cpId,
      classId,
      programId,
      startAt: null,
      expireAt: window?.on === 'class-program' ? end : null,
    })
    .execute();
  const id = `loophole-lesson-${n}`;
  await w.tdb.db
    .insertInto('lessons')
    .values({
      id,
      contextId,
      userId: w.users.ann,
      classId,
      classProgramId: cpId,
      classStepProgramId: null,
      courseId,
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
  return id;
}

async function learnerState(lessonId: string) {
  const u = await w.tdb.db
    .selectFrom('users')
    .select(['scoring', 'donePageCount'])
    .where('id', '=', w.users.ann)
    .executeTakeFirstOrThrow();
  const l = await w.tdb.db
    .selectFrom('lessons')
    .select(['scoring', 'state', 'currentNodeId'])
    .where('id', '=', lessonId)
    .executeTakeFirstOrThrow();
  const pages = await w.tdb.db
    .selectFrom('lessonPages')
    .select([
      'id',
      'nodeId',
      'state',
      'attempt',
      'answeredAt',
      'hintsUsed',
      'startedAt',
      'timeSpent',
      'scoreActual',
    ])
    .where('lessonId', '=', lessonId)
    .orderBy('id')
    .execute();
  return {
    xp: Number((JSON.parse(u.scoring || '{}') as { xp?: number }).xp ?? 0),
    done: u.donePageCount,
    lesson: { scoring: l.scoring, currentNodeId: l.currentNodeId },
    state: l.state,
    pages,
  };
}

type Client = ReturnType<typeof player>;

/** Closes the pages up to the one at `index` (0 intro, 1 multiple choice, 2 free answer, 3 chooser). */
async function walk(p: Client, lessonId: string, index: number): Promise<PageDoc['data']> {
  let page = doc(await p.current(lessonId));
  const answers: Record<number, unknown[] | undefined> = { 0: undefined, 1: [[0, 2]], 2: ['forty-two'] };
  while (page.attributes.index < index) {
    const res = await p.answer(lessonId, page.id, answers[page.attributes.index]);
    expect(res.statusCode, res.body).toBe(200);
    page = doc(await p.next(lessonId, page.id));
  }
  return page;
}

describe('finding 1: the class and class-program windows close every write of the player', () => {
  interface Case {
    name: string;
    /** Walks the fresh lesson to where the write applies; returns the page the write is about. */
    prepare(p: Client, lessonId: string): Promise<string>;
    write(p: Client, lessonId: string, pageId: string): Promise<LightMyRequestResponse>;
  }
  let child = '';
  const cases: Case[] = [
    {
      name: 'answer (PATCH)',
      prepare: async (p, l) => (await walk(p, l, 1)).id,
      write: (p, l, id) => p.answer(l, id, [[0, 2]]),
    },
    {
      name: 'next (closing a slide)',
      prepare: async (p, l) => (await walk(p, l, 0)).id,
      write: (p, l, id) => p.next(l, id),
    },
    {
      name: 'previous',
      prepare: async (p, l) => (await walk(p, l, 1)).id,
      write: (p, l, id) => p.previous(l, id),
    },
    {
      name: 'choose',
      prepare: async (p, l) => {
        const chooser = await walk(p, l, 3);
        child = chooser.attributes.children[0]!.nodeId;
        return chooser.id;
      },
      write: (p, l, id) => p.choose(l, id, child),
    },
    { name: 'hint', prepare: async (p, l) => (await walk(p, l, 1)).id, write: (p, l, id) => p.hint(l, id) },
    {
      name: 'retry',
      prepare: async (p, l) => {
        const free = await walk(p, l, 2);
        expect((await p.answer(l, free.id, ['nope'])).statusCode).toBe(200);
        return free.id;
      },
      write: (p, l, id) => p.retry(l, id),
    },
    { name: 'start', prepare: async (p, l) => (await walk(p, l, 1)).id, write: (p, l, id) => p.start(l, id) },
    { name: 'ping', prepare: async (p, l) => (await walk(p, l, 1)).id, write: (p, l, id) => p.ping(l, id) },
    {
      name: 'custom-tincan-score',
      prepare: async (p, l) => (await walk(p, l, 1)).id,
      write: (p, l, id) =>
        p.send('POST', `/api/lessons/${l}/pages/custom-tincan-score`, {
          pageId: id,
          launch: 'x',
          score: { scaled: 1 },
        }),
    },
  ];

  for (const on of ['class', 'class-program'] as const) {
    it.each(cases.map((c) => [c.name, c] as const))(
      `${on} window closed, then %s: refused, nothing graded, lesson EXPIRED`,
      async (_name, c) => {
        const p = player(w.app, token);
        const lessonId = await freshLesson({ closesIn: 3600, on });
        const pageId = await c.prepare(p, lessonId);
        const before = await learnerState(lessonId);
        expect(before.state).toBe('AVAILABLE');
        w.clock.advance(3600);
        const res = await c.write(p, lessonId, pageId);
        expect(res.statusCode, res.body).toBe(409);
        expect(code(res)).toBe('LESSON_SKIPPED');
        const after = await learnerState(lessonId);
        // Marked by the refusing request itself, before any read could apply the rules.
        expect(after.state).toBe('EXPIRED');
        expect({ ...after, state: before.state }).toEqual(before);
        // And from then on the lesson is closed.
        expect((await p.current(lessonId)).statusCode).toBe(403);
      },
    );
  }

  it('1 ms before the window closes, the answer is graded', async () => {
    const p = player(w.app, token);
    const lessonId = await freshLesson({ closesIn: 3600, on: 'class-program' });
    const mc = await walk(p, lessonId, 1);
    w.clock.advance(3600 - 0.001);
    const res = await p.answer(lessonId, mc.id, [[0, 2]]);
    expect(res.statusCode, res.body).toBe(200);
    expect(doc(res).attributes.results?.score).toEqual({ actual: 10, max: 10 });
    w.clock.advance(0.001);
  });
});

describe('finding 3: one choice per multiblock', () => {
  const chooserNode = async (p: Client, lessonId: string) => {
    const chooser = await walk(p, lessonId, 3);
    expect(chooser.attributes.node.type).toBe('multiblock');
    const [ta, tb] = chooser.attributes.children.map((c) => c.nodeId);
    return { chooser, ta: ta!, tb: tb! };
  };
  const activeChildPages = async (lessonId: string, nodes: string[]) =>
    w.tdb.db
      .selectFrom('lessonPages')
      .select(['nodeId', 'answeredAt'])
      .where('lessonId', '=', lessonId)
      .where('nodeId', 'in', nodes)
      .where('state', '!=', 'ARCHIVED')
      .execute();

  it('after answering one child, choosing the other is refused (409) and nothing is graded', async () => {
    const p = player(w.app, token);
    const lessonId = await freshLesson();
    const { chooser, ta, tb } = await chooserNode(p, lessonId);
    const child = doc(await p.choose(lessonId, chooser.id, ta));
    expect((await p.answer(lessonId, child.id, [1])).statusCode).toBe(200);
    const before = await learnerState(lessonId);
    const other = await p.choose(lessonId, chooser.id, tb);
    expect(other.statusCode, other.body).toBe(409);
    expect(code(other)).toBe('INVALID_INPUTS');
    expect(await learnerState(lessonId)).toEqual(before);
    // Choosing the same child again is harmless: its page, unchanged.
    const same = await p.choose(lessonId, chooser.id, ta);
    expect(same.statusCode).toBe(200);
    expect(doc(same).id).toBe(child.id);
  });

  it('choosing the other child before answering the first is refused too', async () => {
    const p = player(w.app, token);
    const lessonId = await freshLesson();
    const { chooser, ta, tb } = await chooserNode(p, lessonId);
    expect((await p.choose(lessonId, chooser.id, tb)).statusCode).toBe(200);
    const res = await p.choose(lessonId, chooser.id, ta);
    expect(res.statusCode).toBe(409);
    expect(await activeChildPages(lessonId, [ta, tb])).toHaveLength(1);
  });

  it('after the lesson is DONE, choosing the other child is refused and the score does not move', async () => {
    const p = player(w.app, token);
    const lessonId = await freshLesson();
    const { chooser, ta, tb } = await chooserNode(p, lessonId);
    const child = doc(await p.choose(lessonId, chooser.id, ta));
    expect((await p.answer(lessonId, child.id, [0])).statusCode).toBe(200);
    const last = doc(await p.next(lessonId, child.id));
    expect((await p.answer(lessonId, last.id, [0])).statusCode).toBe(200);
    const before = await learnerState(lessonId);
    const lesson = await w.tdb.db
      .selectFrom('lessons')
      .select(['state', 'progress'])
      .where('id', '=', lessonId)
      .executeTakeFirstOrThrow();
    expect(lesson).toEqual({ state: 'DONE', progress: 'COMPLETED' });
    const res = await p.choose(lessonId, chooser.id, tb);
    expect(res.statusCode).toBe(409);
    expect(await learnerState(lessonId)).toEqual(before);
  });

  it('two choices at once, on two server processes: one wins, one child page', async () => {
    for (let round = 0; round < 3; round++) {
      const lessonId = await freshLesson();
      const { chooser, ta, tb } = await chooserNode(player(w.app, token), lessonId);
      const results = await Promise.all([
        player(w.app, token).choose(lessonId, chooser.id, ta),
        player(peer, token).choose(lessonId, chooser.id, tb),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await activeChildPages(lessonId, [ta, tb])).toHaveLength(1);
    }
  });

  it('the database refuses a second active child page of one multiblock', async () => {
    const p = player(w.app, token);
    const lessonId = await freshLesson();
    const { chooser, ta, tb } = await chooserNode(p, lessonId);
    const child = doc(await p.choose(lessonId, chooser.id, ta));
    const row = await w.tdb.db
      .selectFrom('lessonPages')
      .selectAll()
      .where('id', '=', child.id)
      .executeTakeFirstOrThrow();
    // The index is back: with the legacy row archived, a new chosen child page still collides with the first.
    await w.tdb.db
      .updateTable('lessonPages')
      .set({ state: 'ARCHIVED' })
      .where('id', '=', `${row.id}-legacy`)
      .execute();
    await expect(
      w.tdb.db
        .insertInto('lessonPages')
        .values({ ...row, id: `${row.id}-other`, nodeId: tb })
        .execute(),
    ).rejects.toThrow();
  });

  it('migration 0008 on a lesson that already holds two chosen children: the first keeps the choice, the index holds', async () => {
    // Runs last: it takes the migration down and up again on this test's database.
    const p = player(w.app, token);
    const lessonId = await freshLesson();
    const { chooser, ta, tb } = await chooserNode(p, lessonId);
    const first = doc(await p.choose(lessonId, chooser.id, ta));
    const row = await w.tdb.db
      .selectFrom('lessonPages')
      .selectAll()
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    await honestScores.down(w.tdb.db);
    // What the loophole left behind before 0008: the other child chosen too, a moment later.
    const later = new Date(Date.parse(row.createdAt) + 1000).toISOString();
    const { choiceOf: _c, launchToken: _l, ...legacy } = row;
    await w.tdb.db
      .insertInto('lessonPages')
      .values({ ...legacy, id: `${row.id}-legacy`, nodeId: tb, createdAt: later, updatedAt: later })
      .execute();
    await honestScores.up(w.tdb.db);
    const pages = await w.tdb.db
      .selectFrom('lessonPages')
      .select(['id', 'choiceOf'])
      .where('id', 'in', [row.id, `${row.id}-legacy`])
      .orderBy('createdAt')
      .execute();
    expect(pages).toEqual([
      { id: row.id, choiceOf: chooser.attributes.nodeId },
      { id: `${row.id}-legacy`, choiceOf: null },
    ]);
    // The index is back: with the legacy row archived, a new chosen child page still collides with the first.
    await w.tdb.db
      .updateTable('lessonPages')
      .set({ state: 'ARCHIVED' })
      .where('id', '=', `${row.id}-legacy`)
      .execute();
    await expect(
      w.tdb.db
        .insertInto('lessonPages')
        .values({
          ...legacy,
          id: `${row.id}-third`,
          nodeId: tb,
          attempt: 9,
          choiceOf: chooser.attributes.nodeId,
        })
        .execute(),
    ).rejects.toThrow();
  });
});
