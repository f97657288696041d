import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorDoc } from '../helpers/app';
import type { PageDoc, PlayWorld } from '../helpers/player';
import { freshPractice as freshOf, playLogin, player, startPlayWorld, toTimedPage } from '../helpers/player';

/**
 * Time limits are the server's (docs/api.md "Lesson player"): a timed page counts from its
 * start confirmation, a lesson from its first opening; lateness is judged by the time the
 * request ARRIVED, with a 2-second grace. The clock is injected, so nothing sleeps.
 */
let w: PlayWorld;
let ann: ReturnType<typeof player>;
let ben: ReturnType<typeof player>;

beforeAll(async () => {
  w = await startPlayWorld();
  ann = player(w.app, await playLogin(w.app, 'ann'));
  ben = player(w.app, await playLogin(w.app, 'ben'));
});
afterAll(async () => w?.close());

const doc = (res: { json(): unknown }) => (res.json() as PageDoc).data;
const code = (res: { json(): unknown }) => (res.json() as ErrorDoc).errors[0]?.code;
const freshPractice = (who: 'ann' | 'ben') => freshOf(w, who);

describe('a timed page (60 s)', () => {
  let L: string;
  let timed: PageDoc['data'];

  it('starts its clock on the start call, idempotently, and counts down on the server', async () => {
    L = w.lessons.ann.practice;
    timed = await toTimedPage(ann, L);
    expect(timed.attributes).toMatchObject({ timeLimit: 60, startedAt: null });
    w.clock.advance(30); // reading the confirmation does not count
    const start = doc(await ann.start(L, timed.id));
    expect(start.attributes).toMatchObject({ startedAt: w.clock.now().toISOString(), remainingSeconds: 60 });
    w.clock.advance(10);
    expect(doc(await ann.start(L, timed.id)).attributes).toMatchObject({
      startedAt: start.attributes.startedAt,
      remainingSeconds: 50,
    });
  });

  it('an answer received after the limit and its grace is refused with LESSON_PAGE_SKIPPED; the page is closed with 0 and the learner moves on', async () => {
    w.clock.advance(53); // 63 s after the start: past 60 + 2
    const before = await w.tdb.db
      .selectFrom('users')
      .select('scoring')
      .where('id', '=', w.users.ann)
      .executeTakeFirstOrThrow();
    const res = await ann.answer(L, timed.id, [1]);
    expect(res.statusCode).toBe(409);
    expect(code(res)).toBe('LESSON_PAGE_SKIPPED');
    const page = doc(await ann.current(L, `?pageId=${timed.id}`));
    expect(page.attributes).toMatchObject({
      progress: 'COMPLETED',
      inputs: { answers: [] },
      results: { skipped: true, score: { actual: 0, max: 10 }, feedbacks: [] },
    });
    const after = await w.tdb.db
      .selectFrom('users')
      .select('scoring')
      .where('id', '=', w.users.ann)
      .executeTakeFirstOrThrow();
    expect(after.scoring).toBe(before.scoring);
    const again = await ann.answer(L, timed.id, [1]);
    expect(code(again)).toBe('INVALID_INPUTS');
    expect((await ann.next(L, timed.id)).statusCode).toBe(200);
  });
});

describe('an answer that arrives in time is kept', () => {
  it('inside the 2-second grace', async () => {
    const B = w.lessons.ben.practice;
    const timed = await toTimedPage(ben, B);
    await ben.start(B, timed.id);
    w.clock.advance(61.5);
    const res = await ben.answer(B, timed.id, [1]);
    expect(res.statusCode).toBe(200);
    expect(doc(res).attributes.results!.score).toEqual({ actual: 10, max: 10 });
  });

  it('even when the timer expires while the save is in flight: the arrival time decides', async () => {
    // A lesson of her own for it: a multiblock offers one choice only (decision 0009).
    const A = await freshPractice('ann');
    const second = await toTimedPage(ann, A);
    expect(second.attributes.timeLimit).toBe(60);
    await ann.start(A, second.id);
    // Stamped at 59 s (in time); every later read of the clock says 120 s — the handler, the
    // transaction and the commit all happen "after" the limit.
    const t0 = w.clock.t;
    w.clock.queued.push(t0 + 59_000);
    w.clock.t = t0 + 120_000;
    const res = await ann.answer(A, second.id, [1]);
    expect(res.statusCode).toBe(200);
    expect(doc(res).attributes).toMatchObject({
      answeredAt: new Date(t0 + 59_000).toISOString(),
      results: { score: { actual: 10, max: 10 } },
    });
  });
});

describe('a timed page never started counts from its opening', () => {
  it('so skipping the start call gains nothing; next from an expired unanswered page records it as skipped', async () => {
    const B = await freshPractice('ben');
    const page = await toTimedPage(ben, B);
    w.clock.advance(70);
    const next = await ben.next(B, page.id);
    expect(next.statusCode).toBe(200);
    const closed = doc(await ben.current(B, `?pageId=${page.id}`));
    expect(closed.attributes).toMatchObject({ progress: 'COMPLETED', results: { skipped: true } });
  });
});

describe("the lesson's own time limit", () => {
  it('refuses writes with LESSON_SKIPPED once over, marks the lesson SKIPPED, keeps reads of answered pages', async () => {
    const E = w.lessons.ben.exam;
    await w.tdb.db.updateTable('lessons').set({ timeLimit: 120 }).where('id', '=', E).execute();
    const page = doc(await ben.current(E));
    expect(page.attributes.lessonRemainingSeconds).toBe(120);
    w.clock.advance(100);
    expect(doc(await ben.current(E)).attributes.lessonRemainingSeconds).toBe(20);
    w.clock.advance(23);
    const res = await ben.answer(E, page.id, [1]);
    expect(res.statusCode).toBe(409);
    expect(code(res)).toBe('LESSON_SKIPPED');
    const lesson = await w.tdb.db
      .selectFrom('lessons')
      .select(['state', 'endedAt'])
      .where('id', '=', E)
      .executeTakeFirstOrThrow();
    expect(lesson).toEqual({ state: 'SKIPPED', endedAt: w.clock.now().toISOString() });
    for (const r of [await ben.current(E), await ben.ping(E, page.id), await ben.next(E, page.id)])
      expect(code(r)).toBe('LESSON_SKIPPED');
    expect((await ben.current(E, `?pageId=${page.id}`)).statusCode).toBe(200);
  });

  it('an answer inside the lesson limit is kept', async () => {
    const E = w.lessons.ann.exam;
    await w.tdb.db.updateTable('lessons').set({ timeLimit: 120 }).where('id', '=', E).execute();
    const page = doc(await ann.current(E));
    w.clock.advance(121);
    expect((await ann.answer(E, page.id, [1])).statusCode).toBe(200);
  });
});

describe('a lesson closed by its own time limit', () => {
  it('opens the lesson after it in the same transaction that marks it SKIPPED', async () => {
    const P = w.lessons.ben.practice;
    const next = w.lessons.ben.examLocked;
    const stateOf = async (id: string) =>
      (await w.tdb.db.selectFrom('lessons').select('state').where('id', '=', id).executeTakeFirstOrThrow())
        .state;
    expect(await stateOf(next)).toBe('LOCKED');
    const page = await w.tdb.db
      .selectFrom('lessonPages')
      .select('id')
      .where('lessonId', '=', P)
      .where('state', '=', 'ACTIVE')
      .executeTakeFirstOrThrow();
    const started = new Date(w.clock.now().getTime() - 3_600_000).toISOString();
    await w.tdb.db
      .updateTable('lessons')
      .set({ timeLimit: 60, startedAt: started })
      .where('id', '=', P)
      .execute();
    const res = await ben.answer(P, page.id, [1]);
    expect(code(res)).toBe('LESSON_SKIPPED');
    // Read straight from the database: no API read has had a chance to apply the rules.
    expect(await stateOf(P)).toBe('SKIPPED');
    expect(await stateOf(next)).toBe('AVAILABLE');
  });
});
