import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorDoc } from '../helpers/app';
import type { PageDoc, PlayWorld } from '../helpers/player';
import { playLogin, player, startPlayWorld } from '../helpers/player';

let w: PlayWorld;
let ann: ReturnType<typeof player>;
let ben: ReturnType<typeof player>;
let L: string;

beforeAll(async () => {
  w = await startPlayWorld();
  ann = player(w.app, await playLogin(w.app, 'ann'));
  ben = player(w.app, await playLogin(w.app, 'ben'));
  L = w.lessons.ann.practice;
});
afterAll(async () => w?.close());

const doc = (res: { json(): unknown }) => (res.json() as PageDoc).data;
const code = (res: { json(): unknown }) => (res.json() as ErrorDoc).errors[0]?.code;

async function xpOf(userId: string): Promise<{ xp: number; done: number; alive: number }> {
  const row = await w.tdb.db
    .selectFrom('users')
    .select(['scoring', 'donePageCount', 'timeAlive'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    xp: Number((JSON.parse(row.scoring) as { xp?: number }).xp ?? 0),
    done: row.donePageCount,
    alive: row.timeAlive,
  };
}

describe('the whole life cycle of a lesson (practice course: hints, feedbacks, retry)', () => {
  let introId: string;
  let mcId: string;
  let freeId: string;

  it('first open creates the first page, starts the lesson and says where the learner is', async () => {
    const res = await ann.current(L, '?noCache=1');
    expect(res.statusCode).toBe(200);
    const page = doc(res);
    introId = page.id;
    expect(page.attributes).toMatchObject({
      index: 0,
      count: 5,
      progress: 'ONGOING',
      current: true,
      attempt: 1,
      inputs: null,
      results: null,
      block: { type: 'slide', title: 'Introduction' },
      node: { type: 'block' },
      lessonScoring: { global: { actual: 0, max: 0 } },
    });
    const lesson = await w.tdb.db
      .selectFrom('lessons')
      .selectAll()
      .where('id', '=', L)
      .executeTakeFirstOrThrow();
    expect(lesson).toMatchObject({ progress: 'ONGOING', startedAt: w.clock.now().toISOString() });
    // Opening again is a read: same page, no second row.
    expect(doc(await ann.current(L)).id).toBe(introId);
    const rows = await w.tdb.db.selectFrom('lessonPages').select('id').where('lessonId', '=', L).execute();
    expect(rows).toHaveLength(1);
  });

  it('a slide closes with an empty PATCH; next opens the next page', async () => {
    const res = await ann.answer(L, introId);
    expect(res.statusCode).toBe(200);
    expect(doc(res).attributes).toMatchObject({
      progress: 'COMPLETED',
      results: { score: { actual: 0, max: 0 }, outcome: null },
    });
    const next = await ann.next(L, introId);
    expect(next.statusCode).toBe(200);
    const page = doc(next);
    mcId = page.id;
    expect(page.attributes).toMatchObject({
      index: 1,
      current: true,
      node: { tools: { calculator: true } },
      block: { title: 'Pick the even numbers', settings: { hintCount: 2 }, terms: [{ title: 'Half' }] },
      hints: { messages: [], remaining: 2, nextMalus: 2 },
    });
  });

  it('next from an unanswered exercise is refused; previous goes back without moving the current page', async () => {
    const res = await ann.next(L, mcId);
    expect(res.statusCode).toBe(409);
    expect(code(res)).toBe('BAD_REQUEST');
    const prev = await ann.previous(L, mcId);
    expect(prev.statusCode).toBe(200);
    expect(doc(prev)).toMatchObject({ id: introId, attributes: { progress: 'COMPLETED', current: false } });
    expect(doc(await ann.current(L)).id).toBe(mcId);
    const first = await ann.previous(L, introId);
    expect(first.statusCode).toBe(409);
    expect(code(first)).toBe('MODEL_NOT_FOUND');
  });

  it('hints unlock one at a time and their cost is taken at grading', async () => {
    const h = await ann.hint(L, mcId);
    expect(h.statusCode).toBe(200);
    expect(h.json()).toEqual({ hints: { messages: ['HINT-ONE'], remaining: 1, nextMalus: 3 } });
    expect(doc(await ann.current(L)).attributes.hints.messages).toEqual(['HINT-ONE']);

    const before = await xpOf(w.users.ann);
    const res = await ann.answer(L, mcId, [[0, 2]]);
    expect(res.statusCode).toBe(200);
    const page = doc(res).attributes;
    // 10 points for the row, minus the unlocked hint's cost of 2.
    expect(page.results).toMatchObject({
      score: { actual: 8, max: 10 },
      outcome: 'correct',
      retryAllowed: false,
    });
    expect(page.results!.feedbacks.map((f) => f.message)).toEqual([
      'SECRET-general-correct',
      'SECRET-mc-correct',
    ]);
    expect(page.inputs).toEqual({ answers: [[0, 2]] });
    expect(page.lessonScoring).toEqual({ global: { actual: 8, max: 10 } });
    const after = await xpOf(w.users.ann);
    expect(after.xp - before.xp).toBe(8);
    expect(after.done - before.done).toBe(1);

    // After the answer, a hint changes nothing of the score.
    const late = await ann.hint(L, mcId);
    expect(late.statusCode).toBe(200);
    expect(doc(await ann.current(L, `?pageId=${mcId}`)).attributes.results!.score).toEqual({
      actual: 8,
      max: 10,
    });
  });

  it('answering again is refused (INVALID_INPUTS, the course allows retries) and counts nothing', async () => {
    const before = await xpOf(w.users.ann);
    const res = await ann.answer(L, mcId, [[0, 2]]);
    expect(res.statusCode).toBe(409);
    expect(code(res)).toBe('INVALID_INPUTS');
    expect(await xpOf(w.users.ann)).toEqual(before);
  });

  it('malformed answers: 400 VALIDATION_ERROR with pointers, nothing recorded', async () => {
    freeId = doc(await ann.next(L, mcId)).id;
    const bad = await ann.answer(L, freeId, [42]);
    expect(bad.statusCode).toBe(400);
    const err = bad.json() as ErrorDoc;
    expect(err.errors[0]).toMatchObject({
      code: 'VALIDATION_ERROR',
      source: { pointer: '/inputs/answers/0' },
    });
    const tooMany = await ann.answer(L, freeId, ['a', 'b']);
    expect(tooMany.statusCode).toBe(400);
    const notAList = await ann.send('PATCH', `/api/lessons/${L}/pages/current`, {
      pageId: freeId,
      inputs: { answers: 'x' },
    });
    expect(notAList.statusCode).toBe(400);
    expect(doc(await ann.current(L)).attributes.answeredAt).toBeNull();
  });

  it('a huge body is a 413 JSON:API error, never a 500', async () => {
    const res = await ann.send('PATCH', `/api/lessons/${L}/pages/current`, {
      pageId: freeId,
      inputs: { answers: ['x'.repeat(300_000)] },
    });
    expect(res.statusCode).toBe(413);
    expect(code(res)).toBe('BAD_REQUEST');
  });

  it('a wrong free answer gets its answer-specific feedback, then a retry archives it and a better answer adds only the improvement', async () => {
    const wrong = await ann.answer(L, freeId, ['Forty-one']);
    expect(wrong.statusCode).toBe(200);
    expect(doc(wrong).attributes.results).toMatchObject({
      score: { actual: 0, max: 10 },
      outcome: 'incorrect',
      retryAllowed: true,
    });
    expect(doc(wrong).attributes.results!.feedbacks.map((f) => f.message)).toContain('SECRET-free-41');
    expect(doc(wrong).attributes.lessonScoring).toEqual({ global: { actual: 8, max: 20 } });

    const before = await xpOf(w.users.ann);
    const retry = await ann.retry(L, freeId);
    expect(retry.statusCode).toBe(200);
    const second = doc(retry);
    expect(second.id).not.toBe(freeId);
    expect(second.attributes).toMatchObject({ attempt: 2, results: null, inputs: null, progress: 'ONGOING' });
    // The archived attempt is gone from the lesson's pages and from the score.
    expect((await ann.current(L, `?pageId=${freeId}`)).statusCode).toBe(404);
    const old = await ann.answer(L, freeId, ['forty-two']);
    expect(code(old)).toBe('INVALID_INPUTS');

    const right = await ann.answer(L, second.id, [' Forty-Two. ']);
    expect(doc(right).attributes.results).toMatchObject({
      score: { actual: 10, max: 10 },
      outcome: 'correct',
    });
    expect(doc(right).attributes.lessonScoring).toEqual({ global: { actual: 18, max: 20 } });
    const after = await xpOf(w.users.ann);
    expect(after.xp - before.xp).toBe(10);
    // A retry is not a new page done.
    expect(after.done).toBe(before.done);
    freeId = second.id;
    // Fully right: nothing left to retry.
    expect(code(await ann.retry(L, freeId))).toBe('RETRY_RESTRICT');
  });

  it('a multiblock page offers its children; the chosen one is answered; the last next says NO_LESSON_PAGE_AVAILABLE and the lesson is COMPLETED', async () => {
    const chooser = doc(await ann.next(L, freeId));
    expect(chooser.attributes).toMatchObject({
      index: 3,
      block: null,
      node: { type: 'multiblock', title: 'Against the clock' },
    });
    expect(chooser.attributes.children.map((c) => c.done)).toEqual([false, false]);
    expect(code(await ann.next(L, chooser.id))).toBe('BAD_REQUEST');
    const childNode = chooser.attributes.children[0]!.nodeId;
    const chosen = await ann.choose(L, chooser.id, childNode);
    expect(chosen.statusCode).toBe(200);
    const timed = doc(chosen);
    expect(timed.attributes).toMatchObject({
      nodeId: childNode,
      timeLimit: 60,
      index: 3,
      startedAt: null,
      current: true,
    });
    expect(doc(await ann.current(L)).id).toBe(timed.id);
    const started = doc(await ann.start(L, timed.id));
    expect(started.attributes).toMatchObject({
      startedAt: w.clock.now().toISOString(),
      remainingSeconds: 60,
    });
    w.clock.advance(20);
    expect(doc(await ann.current(L)).attributes.remainingSeconds).toBe(40);
    const answered = await ann.answer(L, timed.id, [1]);
    expect(doc(answered).attributes.results!.score).toEqual({ actual: 10, max: 10 });

    const last = doc(await ann.next(L, timed.id));
    expect(last.attributes).toMatchObject({ index: 4, block: { title: 'Last one' } });
    const done = await ann.answer(L, last.id, [0]);
    expect(doc(done).attributes.lessonScoring).toEqual({ global: { actual: 38, max: 40 } });
    const end = await ann.next(L, last.id);
    expect(end.statusCode).toBe(409);
    expect(code(end)).toBe('NO_LESSON_PAGE_AVAILABLE');
    expect(code(await ann.current(L))).toBe('NO_LESSON_PAGE_AVAILABLE');

    const lesson = (await ann.lesson(L)).json() as { data: { attributes: Record<string, unknown> } };
    expect(lesson.data.attributes).toMatchObject({
      progress: 'COMPLETED',
      state: 'DONE',
      scoring: { global: { actual: 38, max: 40 } },
      percentProgression: 100,
    });
    // Correction mode: an answered page with the learner's inputs and results.
    const review = doc(await ann.current(L, `?pageId=${mcId}`));
    expect(review.attributes.inputs).toEqual({ answers: [[0, 2]] });
    expect(review.attributes.results!.correction).toHaveLength(1);
    // Sections open once reached.
    expect((await ann.current(L, '?section=' + (review.attributes.sectionId ?? ''))).statusCode).toBe(200);
  });
});

describe("order and access are the server's", () => {
  it('a section not reached yet, a page id of another lesson and an unknown page are refused', async () => {
    const B = w.lessons.ben.practice;
    const first = doc(await ben.current(B));
    const sections = await w.tdb.db
      .selectFrom('courseNodes')
      .select(['id', 'title'])
      .where('type', '=', 'container')
      .execute();
    const second = sections.find((s) => s.title === 'Second')!.id;
    const ahead = await ben.current(B, `?section=${second}`);
    expect(ahead.statusCode).toBe(403);
    expect(code(ahead)).toBe('Forbidden');
    expect((await ben.current(B, `?section=nope`)).statusCode).toBe(404);
    // Ann's pages do not exist in Ben's lesson.
    const annPage = await w.tdb.db
      .selectFrom('lessonPages')
      .select('id')
      .where('lessonId', '=', L)
      .executeTakeFirstOrThrow();
    expect((await ben.current(B, `?pageId=${annPage.id}`)).statusCode).toBe(404);
    expect((await ben.answer(B, annPage.id, [])).statusCode).toBe(404);
    expect((await ben.next(B, 'no-such-page')).statusCode).toBe(404);
    // Unknown query parameters are refused, not ignored.
    expect((await ben.current(B, '?page=2')).statusCode).toBe(400);
    expect(doc(await ben.current(B)).id).toBe(first.id);
  });

  it("a learner opening another learner's lesson gets 404, without a token 401", async () => {
    for (const res of [
      await ben.current(L),
      await ben.answer(L, 'x', []),
      await ben.next(L, 'x'),
      await ben.hint(L, 'x'),
      await ben.ping(L, 'x'),
      await ben.send('GET', `/api/pages/x/resources?lessonId=${L}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(code(res)).toBe('MODEL_NOT_FOUND');
    }
    const anon = await w.app.inject({
      method: 'GET',
      url: `/api/lessons/${L}/pages/current`,
      headers: { host: 'play.test' },
    });
    expect(anon.statusCode).toBe(401);
  });

  it('a LOCKED lesson cannot be opened or answered (403)', async () => {
    // Ben's: Ann's practice lesson is completed above, which may unlock her next one.
    const locked = w.lessons.ben.examLocked;
    expect(
      (
        await w.tdb.db
          .selectFrom('lessons')
          .select('state')
          .where('id', '=', locked)
          .executeTakeFirstOrThrow()
      ).state,
    ).toBe('LOCKED');
    for (const res of [
      await ben.current(locked),
      await ben.answer(locked, 'x', []),
      await ben.next(locked, 'x'),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(code(res)).toBe('Forbidden');
    }
  });
});

describe('course type settings: exam (no hints, no feedbacks, no retry)', () => {
  it('refuses hints, shows no feedback and answers RETRY_RESTRICT on a second submission', async () => {
    const E = w.lessons.ann.exam;
    const page = doc(await ann.current(E));
    expect(page.attributes.hints).toEqual({ messages: [], remaining: 0, nextMalus: null });
    expect(page.attributes).toMatchObject({
      courseTypeSettings: { hints: false, feedbacks: false, retry: false },
    } as never);
    expect(code(await ann.hint(E, page.id))).toBe('BAD_REQUEST');
    const res = await ann.answer(E, page.id, [0]);
    expect(doc(res).attributes.results).toMatchObject({
      score: { actual: 0, max: 10 },
      feedbacks: [],
      retryAllowed: false,
    });
    const again = await ann.answer(E, page.id, [1]);
    expect(again.statusCode).toBe(409);
    expect(code(again)).toBe('RETRY_RESTRICT');
    expect(code(await ann.retry(E, page.id))).toBe('RETRY_RESTRICT');
  });
});

describe('keep-alive and resources', () => {
  it('a ping adds the server-measured time since the last one, capped at 15 s', async () => {
    const B = w.lessons.ben.practice;
    const page = doc(await ben.current(B));
    const before = await xpOf(w.users.ben);
    w.clock.advance(10);
    expect((await ben.ping(B, page.id)).statusCode).toBe(204);
    w.clock.advance(600);
    expect((await ben.ping(B, page.id)).statusCode).toBe(204);
    const row = await w.tdb.db
      .selectFrom('lessonPages')
      .select(['timeSpent', 'timeAlive'])
      .where('id', '=', page.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ timeSpent: 25, timeAlive: 25 });
    const lesson = await w.tdb.db
      .selectFrom('lessons')
      .select(['timeSpent', 'timeAlive'])
      .where('id', '=', B)
      .executeTakeFirstOrThrow();
    expect(lesson).toEqual({ timeSpent: 25, timeAlive: 25 });
    expect((await xpOf(w.users.ben)).alive - before.alive).toBe(25);
    expect(doc(await ben.current(B)).attributes.timeSpent).toBe(25);
  });

  it('resources of a page: its node attachments and resource nodes', async () => {
    const B = w.lessons.ben.practice;
    const page = doc(await ben.current(B));
    const res = await ben.send('GET', `/api/pages/${page.id}/resources?lessonId=${B}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [], meta: { files: [] } });
  });
});
