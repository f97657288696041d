import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ErrorDoc } from '../helpers/app';
import type { PageDoc, PlayWorld } from '../helpers/player';
import { playLogin, player, startPlayWorld } from '../helpers/player';

/**
 * Double and concurrent submissions: one graded answer, score and XP counted once — in one
 * process (in-flight guard + database) and across two app instances on the same database (as two
 * server processes: only the database decides).
 */
let w: PlayWorld;
let peer: FastifyInstance;
let annToken: string;
let benToken: string;

beforeAll(async () => {
  w = await startPlayWorld();
  peer = await w.buildPeer();
  annToken = await playLogin(w.app, 'ann');
  benToken = await playLogin(w.app, 'ben');
});
afterAll(async () => w?.close());

const doc = (res: { json(): unknown }) => (res.json() as PageDoc).data;
const code = (res: { json(): unknown }) => (res.json() as ErrorDoc).errors[0]?.code;

async function state(userId: string, lessonId: string) {
  const u = await w.tdb.db
    .selectFrom('users')
    .select(['scoring', 'donePageCount'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const l = await w.tdb.db
    .selectFrom('lessons')
    .select('scoring')
    .where('id', '=', lessonId)
    .executeTakeFirstOrThrow();
  const graded = await w.tdb.db
    .selectFrom('lessonPages')
    .select('id')
    .where('lessonId', '=', lessonId)
    .where('answeredAt', 'is not', null)
    .execute();
  return {
    xp: Number((JSON.parse(u.scoring) as { xp?: number }).xp ?? 0),
    done: u.donePageCount,
    lesson: JSON.parse(l.scoring) as { global: { actual: number; max: number } },
    graded: graded.length,
  };
}

/** Opens the lesson and walks to the multiple-choice page (slide closed). */
async function toExercise(app: FastifyInstance, token: string, lessonId: string): Promise<string> {
  const p = player(app, token);
  const intro = doc(await p.current(lessonId));
  expect((await p.answer(lessonId, intro.id)).statusCode).toBe(200);
  return doc(await p.next(lessonId, intro.id)).id;
}

describe('two submissions of the same page at once', () => {
  it('same process: exactly one 200 and one 409, the score and XP counted once', async () => {
    const L = w.lessons.ann.practice;
    const pageId = await toExercise(w.app, annToken, L);
    const p = player(w.app, annToken);
    const before = await state(w.users.ann, L);
    const results = await Promise.all([p.answer(L, pageId, [[0, 2]]), p.answer(L, pageId, [[0, 2]])]);
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = results.find((r) => r.statusCode === 409)!;
    expect(['PATCH_IN_PROGRESS', 'INVALID_INPUTS']).toContain(code(refused));
    const after = await state(w.users.ann, L);
    expect(after.xp - before.xp).toBe(10);
    expect(after.done - before.done).toBe(1);
    expect(after.lesson.global).toEqual({ actual: 10, max: 10 });
    expect(after.graded - before.graded).toBe(1);
  });

  it('two server processes (two app instances, one database): still one grade', async () => {
    const L = w.lessons.ben.practice;
    const pageId = await toExercise(w.app, benToken, L);
    const here = player(w.app, benToken);
    const there = player(peer, benToken);
    const before = await state(w.users.ben, L);
    const results = await Promise.all([
      here.answer(L, pageId, [[0, 2]]),
      there.answer(L, pageId, [[0]]),
      there.answer(L, pageId, [[2]]),
      here.answer(L, pageId, [[0, 2]]),
    ]);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      expect(['PATCH_IN_PROGRESS', 'INVALID_INPUTS']).toContain(code(r));
    }
    const winner = doc(results.find((r) => r.statusCode === 200)!);
    const after = await state(w.users.ben, L);
    expect(after.xp - before.xp).toBe(winner.attributes.results!.score.actual);
    expect(after.done - before.done).toBe(1);
    expect(after.graded - before.graded).toBe(1);
    expect(after.lesson.global).toEqual(winner.attributes.results!.score);
    // The stored answer is the winner's.
    expect(doc(await here.current(L, `?pageId=${pageId}`)).attributes.inputs).toEqual(
      winner.attributes.inputs,
    );
  });

  it('two tabs opening a new lesson at once create one page', async () => {
    const E = w.lessons.ann.exam;
    const [a, b] = await Promise.all([player(w.app, annToken).current(E), player(peer, annToken).current(E)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(doc(a).id).toBe(doc(b).id);
    const rows = await w.tdb.db.selectFrom('lessonPages').select('id').where('lessonId', '=', E).execute();
    expect(rows).toHaveLength(1);
  });

  it('two hint clicks at once: each unlock is counted exactly once', async () => {
    // Ben's practice multiple-choice page (answered above: hints still unlock there, score untouched).
    const B = w.lessons.ben.practice;
    const mc = await w.tdb.db
      .selectFrom('lessonPages as p')
      .innerJoin('courseNodes as n', 'n.id', 'p.nodeId')
      .innerJoin('courseBlocks as b', 'b.id', 'n.blockId')
      .select('p.id')
      .where('p.lessonId', '=', B)
      .where('b.title', '=', 'Pick the even numbers')
      .executeTakeFirstOrThrow();
    const res = await Promise.all([
      player(w.app, benToken).hint(B, mc.id),
      player(peer, benToken).hint(B, mc.id),
    ]);
    // Either both clicks were taken one after the other (two hints), or they met and the second was
    // refused: never two unlocks counted as one, or one unlock counted twice.
    const ok = res.filter((r) => r.statusCode === 200);
    for (const r of res.filter((x) => x.statusCode !== 200)) expect(code(r)).toBe('PATCH_IN_PROGRESS');
    const used = await w.tdb.db
      .selectFrom('lessonPages')
      .select('hintsUsed')
      .where('id', '=', mc.id)
      .executeTakeFirstOrThrow();
    expect(used.hintsUsed).toBe(ok.length);
    const remaining = ok.map((r) => (r.json() as { hints: { remaining: number } }).hints.remaining).sort();
    expect(remaining).toEqual(ok.length === 2 ? [0, 1] : [1]);
  });

  it('two retries at once open one new attempt', async () => {
    const L = w.lessons.ann.practice;
    const p = player(w.app, annToken);
    const free = doc(await p.next(L, doc(await p.current(L)).id));
    expect(free.attributes.block?.title).toBe('Type the answer');
    expect((await p.answer(L, free.id, ['nope'])).statusCode).toBe(200);
    const res = await Promise.all([p.retry(L, free.id), player(peer, annToken).retry(L, free.id)]);
    expect(res.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const rows = await w.tdb.db
      .selectFrom('lessonPages')
      .select(['attempt', 'state'])
      .where('lessonId', '=', L)
      .where('nodeId', '=', free.attributes.nodeId)
      .orderBy('attempt')
      .execute();
    expect(rows).toEqual([
      { attempt: 1, state: 'ARCHIVED' },
      { attempt: 2, state: 'ACTIVE' },
    ]);
  });
});

describe('the database is the guarantee, not only the code', () => {
  it('refuses a second row for the same lesson, node and attempt, and a second active attempt', async () => {
    const L = w.lessons.ann.practice;
    const row = await w.tdb.db
      .selectFrom('lessonPages')
      .selectAll()
      .where('lessonId', '=', L)
      .where('state', '=', 'ACTIVE')
      .executeTakeFirstOrThrow();
    const copy = { ...row, id: `${row.id}-copy` };
    await expect(w.tdb.db.insertInto('lessonPages').values(copy).execute()).rejects.toThrow();
    await expect(
      w.tdb.db
        .insertInto('lessonPages')
        .values({ ...copy, attempt: row.attempt + 5 })
        .execute(),
    ).rejects.toThrow();
    // An archived copy is allowed: that is what retries leave behind.
    await w.tdb.db
      .insertInto('lessonPages')
      .values({ ...copy, attempt: row.attempt + 5, state: 'ARCHIVED' })
      .execute();
  });
});
