import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TestDb } from '../helpers/test-db';
import { doc, errorsOf, startTincanWorld } from '../helpers/tincan';
import type { TincanWorld } from '../helpers/tincan';

/**
 * POST /api/lessons/{id}/pages/custom-tincan-score (docs/api.md "Lesson player"): the demo
 * course "Health and safety at work" (English tenant) has a tincan page, the fifth. Each test
 * takes a fresh lesson of that course for the demo learner and walks to it through the API.
 */
let w: TincanWorld;
let t: TestDb;
let app: FastifyInstance;
let peer: FastifyInstance;
let teacherId: string;
let learnerToken: string;

beforeAll(async () => {
  w = await startTincanWorld('tincan-score');
  ({ t, app, peer, teacherId, learnerToken } = w);
});
afterAll(async () => {
  await w?.close();
});

const login = (email: string, password: string) => w.login(email, password);
const newLesson = (userId: string) => w.newLesson(userId);
const client = (token: string, on?: FastifyInstance) => w.client(token, on);
const learnerState = (lessonId: string) => w.learnerState(lessonId);
/** The module's launch is part of every score below: a page served without one is a failure. */
async function toTincan() {
  const walked = await w.toTincan();
  if (!walked.launch) throw new Error('the module page came without a launch');
  return { ...walked, launch: walked.launch };
}

describe('custom-tincan-score', () => {
  it('records a scaled score once: 0.8 → 8/10, XP credited once, then next moves on', async () => {
    const { lessonId, pageId, index, launch } = await toTincan();
    const p = client(learnerToken);
    const before = await learnerState(lessonId);
    const res = await p.score(lessonId, { pageId, launch, score: { scaled: 0.8 } });
    expect(res.statusCode, res.body).toBe(200);
    const page = doc(res);
    expect(page.id).toBe(pageId);
    expect(page.attributes.progress).toBe('COMPLETED');
    expect(page.attributes.answeredAt).not.toBeNull();
    expect(page.attributes.results).toMatchObject({
      score: { actual: 8, max: 10 },
      outcome: 'partial',
      feedbacks: [],
      retryAllowed: false,
      tincan: { scaled: 0.8 },
    });
    const after = await learnerState(lessonId);
    expect(after.xp - before.xp).toBeCloseTo(8, 5);
    expect(after.done - before.done).toBe(1);
    expect(after.graded - before.graded).toBe(1);
    expect(after.lesson!.actual - before.lesson!.actual).toBeCloseTo(8, 5);
    expect(after.lesson!.max - before.lesson!.max).toBe(10);

    // Twice: refused, nothing more counted.
    const again = await p.score(lessonId, { pageId, launch, score: { scaled: 1 } });
    expect(again.statusCode).toBe(409);
    expect(errorsOf(again)[0]?.code).toBe('INVALID_INPUTS');
    // An empty PATCH of the scored page is refused as for any answered page.
    expect((await p.close(lessonId, pageId)).statusCode).toBe(409);
    expect(await learnerState(lessonId)).toEqual(after);

    // Correction mode shows the recorded score.
    expect(doc(await p.current(lessonId, `?pageId=${pageId}`)).attributes.results?.score).toEqual({
      actual: 8,
      max: 10,
    });

    // The page is completed: next moves on without closing (or scoring) it again.
    const next = await p.next(lessonId, pageId);
    expect(next.statusCode, next.body).toBe(200);
    expect(doc(next).attributes.index).toBe(index + 1);
    expect(doc(next).id).not.toBe(pageId);
    expect(await learnerState(lessonId)).toEqual(after);
  });

  it('accepts the raw form: (raw − min) / (max − min), min 0 by default', async () => {
    const p = client(learnerToken);
    const a = await toTincan();
    const half = await p.score(a.lessonId, {
      pageId: a.pageId,
      launch: a.launch,
      score: { raw: 15, min: 10, max: 20 },
    });
    expect(half.statusCode, half.body).toBe(200);
    expect(doc(half).attributes.results).toMatchObject({
      score: { actual: 5, max: 10 },
      outcome: 'partial',
      tincan: { scaled: 0.5 },
    });

    const b = await toTincan();
    const full = await p.score(b.lessonId, { pageId: b.pageId, launch: b.launch, score: { raw: 7, max: 7 } });
    expect(full.statusCode, full.body).toBe(200);
    expect(doc(full).attributes.results).toMatchObject({
      score: { actual: 10, max: 10 },
      outcome: 'correct',
    });

    const c = await toTincan();
    const third = await p.score(c.lessonId, {
      pageId: c.pageId,
      launch: c.launch,
      score: { raw: 1, max: 3 },
    });
    expect(doc(third).attributes.results?.score).toEqual({ actual: 3.33, max: 10 });

    const d = await toTincan();
    const zero = await p.score(d.lessonId, { pageId: d.pageId, launch: d.launch, score: { scaled: 0 } });
    expect(doc(zero).attributes.results).toMatchObject({
      score: { actual: 0, max: 10 },
      outcome: 'incorrect',
    });
    expect(doc(zero).attributes.progress).toBe('COMPLETED');
  });

  it('refuses a malformed score with 400 VALIDATION_ERROR and a pointer; nothing is recorded', async () => {
    const { lessonId, pageId, launch } = await toTincan();
    const p = client(learnerToken);
    const before = await learnerState(lessonId);
    const cases: [unknown, string][] = [
      [{ scaled: 1.5 }, '/score/scaled'],
      [{ scaled: -0.1 }, '/score/scaled'],
      [{ scaled: '0.5' }, '/score/scaled'],
      [{}, '/score'],
      [{ raw: 5 }, '/score/max'],
      [{ min: 0, max: 10 }, '/score/raw'],
      [{ raw: 11, max: 10 }, '/score/raw'],
      [{ raw: -1, max: 10 }, '/score/raw'],
      [{ raw: 5, min: 5, max: 5 }, '/score/min'],
      [{ raw: 5, min: 8, max: 2 }, '/score/min'],
      [{ raw: 0, max: 0 }, '/score/max'],
    ];
    for (const [score, pointer] of cases) {
      const res = await p.score(lessonId, { pageId, launch, score });
      expect(res.statusCode, JSON.stringify(score)).toBe(400);
      const errors = errorsOf(res);
      expect(errors[0]?.code).toBe('VALIDATION_ERROR');
      expect(
        errors.map((e) => e.source?.pointer),
        JSON.stringify(score),
      ).toContain(pointer);
    }
    const missing = await p.score(lessonId, { pageId, launch });
    expect(missing.statusCode).toBe(400);
    expect(errorsOf(missing).map((e) => e.source?.pointer)).toContain('/score');
    const noPage = await p.score(lessonId, { launch, score: { scaled: 1 } });
    expect(noPage.statusCode).toBe(400);
    expect(errorsOf(noPage).map((e) => e.source?.pointer)).toContain('/pageId');
    expect(await learnerState(lessonId)).toEqual(before);
    // The page is still open to a good score.
    expect((await p.score(lessonId, { pageId, launch, score: { scaled: 0.25 } })).statusCode).toBe(200);
  });

  it('refuses pages that are not learning modules with 409 BAD_REQUEST', async () => {
    const { lessonId, pageId, before, launch } = await toTincan();
    const p = client(learnerToken);
    // An answered slide / exercise page before the module.
    for (const page of before) {
      const res = await p.score(lessonId, { pageId: page.id, launch, score: { scaled: 1 } });
      expect(res.statusCode).toBe(409);
      expect(errorsOf(res)[0]?.code).toBe('BAD_REQUEST');
    }
    // The multiblock chooser after it, and an unanswered exercise chosen there.
    const chooser = doc(await p.next(lessonId, pageId));
    expect(chooser.attributes.node.type).toBe('multiblock');
    const onChooser = await p.score(lessonId, { pageId: chooser.id, launch, score: { scaled: 1 } });
    expect(onChooser.statusCode).toBe(409);
    expect(errorsOf(onChooser)[0]?.code).toBe('BAD_REQUEST');
    const exercise = doc(await p.choose(lessonId, chooser.id, chooser.attributes.children[0]!.nodeId));
    expect(exercise.attributes.block?.type).toBe('exercice');
    const before2 = await learnerState(lessonId);
    const onExercise = await p.score(lessonId, { pageId: exercise.id, launch, score: { scaled: 1 } });
    expect(onExercise.statusCode).toBe(409);
    expect(errorsOf(onExercise)[0]?.code).toBe('BAD_REQUEST');
    expect(doc(await p.current(lessonId, `?pageId=${exercise.id}`)).attributes.answeredAt).toBeNull();
    expect(await learnerState(lessonId)).toEqual(before2);
  });

  it('two scores at once (one process, or two): exactly one recorded, XP counted once', async () => {
    for (const [first, second] of [
      [app, app],
      [app, peer],
    ] as const) {
      const { lessonId, pageId, launch } = await toTincan();
      const before = await learnerState(lessonId);
      const results = await Promise.all([
        client(learnerToken, first).score(lessonId, { pageId, launch, score: { scaled: 0.6 } }),
        client(learnerToken, second).score(lessonId, { pageId, launch, score: { scaled: 0.9 } }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const refused = results.find((r) => r.statusCode === 409)!;
      expect(['PATCH_IN_PROGRESS', 'INVALID_INPUTS']).toContain(errorsOf(refused)[0]?.code);
      const winner = doc(results.find((r) => r.statusCode === 200)!);
      const after = await learnerState(lessonId);
      expect(after.xp - before.xp).toBeCloseTo(winner.attributes.results!.score.actual, 5);
      expect(after.done - before.done).toBe(1);
      expect(after.graded - before.graded).toBe(1);
    }
  });

  it("another learner's lesson is not found (404)", async () => {
    const lessonId = await newLesson(teacherId);
    const teacher = client(await login('teacher@example.com', 'Teacher#2026'));
    const first = doc(await teacher.current(lessonId));
    const res = await client(learnerToken).score(lessonId, {
      pageId: first.id,
      launch: 'no-launch',
      score: { scaled: 1 },
    });
    expect(res.statusCode).toBe(404);
    expect(errorsOf(res)[0]?.code).toBe('MODEL_NOT_FOUND');
    const mine = await toTincan();
    const unknownPage = await client(learnerToken).score(mine.lessonId, {
      pageId: 'no-such-page',
      launch: mine.launch,
      score: { scaled: 1 },
    });
    expect(unknownPage.statusCode).toBe(404);
  });

  it('a score after the page time limit: 409 LESSON_PAGE_SKIPPED, page recorded with 0', async () => {
    const { lessonId, pageId, launch } = await toTincan();
    // The page was opened long ago and has a one-minute limit.
    await t.db
      .updateTable('lessonPages')
      .set({ timeLimit: 60, openedAt: new Date(Date.now() - 10 * 60_000).toISOString() })
      .where('id', '=', pageId)
      .execute();
    const before = await learnerState(lessonId);
    const res = await client(learnerToken).score(lessonId, { pageId, launch, score: { scaled: 1 } });
    expect(res.statusCode).toBe(409);
    expect(errorsOf(res)[0]?.code).toBe('LESSON_PAGE_SKIPPED');
    const page = doc(await client(learnerToken).current(lessonId, `?pageId=${pageId}`));
    expect(page.attributes.progress).toBe('COMPLETED');
    expect(page.attributes.results).toMatchObject({ score: { actual: 0 }, skipped: true });
    const after = await learnerState(lessonId);
    expect(after.xp).toBe(before.xp);
    expect(after.done - before.done).toBe(1);
  });
});
