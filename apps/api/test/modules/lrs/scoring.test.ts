import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import { VERBS, launchFor, statementOf, xapi } from './world';

/**
 * A module's completed/passed statement with `result.score`, sent through the LRS with its launch
 * credentials, scores the page by the same one-grade rule as the score message
 * (recordTincanScore): once, worth the page's 10 points, the statement stored either way.
 */
let w: TincanWorld;

beforeAll(async () => {
  w = await startTincanWorld('lrs-scoring');
});
afterAll(async () => {
  await w?.close();
});

const pageOf = (id: string) =>
  w.t.db
    .selectFrom('lessonPages')
    .select(['answeredAt', 'scoreActual', 'scoreMax', 'launchToken'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('scoring by statement', () => {
  it('a completed statement with raw 2 of 3 scores the page 6.67/10, once', async () => {
    const l = await launchFor(w, w.learnerToken, w.learnerId);
    const before = await w.learnerState(l.lessonId);
    const done = statementOf(l, {
      verb: { id: VERBS.completed },
      result: { completion: true, score: { raw: 2, min: 0, max: 3 } },
    });
    expect((await xapi(w, l, { method: 'POST', payload: done })).statusCode).toBe(200);
    const page = await pageOf(l.pageId);
    expect(page.answeredAt).not.toBeNull();
    expect(page.scoreActual).toBeCloseTo(6.67, 2);
    expect(page.scoreMax).toBe(10);
    const after = await w.learnerState(l.lessonId);
    expect(after.graded - before.graded).toBe(1);
    expect(after.xp - before.xp).toBeCloseTo(6.67, 2);

    // A second completion (another process, a replay) is stored but grades nothing.
    const again = statementOf(l, { verb: { id: VERBS.passed }, result: { score: { scaled: 1 } } });
    expect((await xapi(w, l, { method: 'POST', payload: again })).statusCode).toBe(200);
    expect((await pageOf(l.pageId)).scoreActual).toBeCloseTo(6.67, 2);
    expect((await w.learnerState(l.lessonId)).xp).toBeCloseTo(after.xp, 5);
    expect((await xapi(w, l, { query: { statementId: again.id } })).statusCode).toBe(200);
  });

  it('scaled 0.8 through the LRS gives what the score message gives: 8/10', async () => {
    const l = await launchFor(w, w.learnerToken, w.learnerId);
    const passed = statementOf(l, { verb: { id: VERBS.passed }, result: { score: { scaled: 0.8 } } });
    expect(
      (await xapi(w, l, { method: 'PUT', query: { statementId: passed.id }, payload: passed })).statusCode,
    ).toBe(204);
    expect((await pageOf(l.pageId)).scoreActual).toBe(8);
    // The score message after it: the page is already answered.
    const late = await w
      .client(w.learnerToken)
      .score(l.lessonId, { pageId: l.pageId, launch: 'anything', score: { scaled: 1 } });
    expect(late.statusCode).toBe(409);
  });

  it('statements without a score, or with another verb, leave the page unscored', async () => {
    const l = await launchFor(w, w.learnerToken, w.learnerId);
    const noScore = statementOf(l, { verb: { id: VERBS.completed }, result: { completion: true } });
    const otherVerb = statementOf(l, { result: { score: { scaled: 1 } } });
    const rawOnly = statementOf(l, { verb: { id: VERBS.completed }, result: { score: { raw: 3 } } });
    expect((await xapi(w, l, { method: 'POST', payload: [noScore, otherVerb, rawOnly] })).statusCode).toBe(
      200,
    );
    const page = await pageOf(l.pageId);
    expect(page.answeredAt).toBeNull();
    expect(page.launchToken).not.toBeNull();
  });

  it('credentials of a page already closed store the statement and change nothing', async () => {
    const l = await launchFor(w, w.learnerToken, w.learnerId);
    const p = w.client(w.learnerToken);
    expect((await p.close(l.lessonId, l.pageId)).statusCode).toBe(200);
    const closed = await pageOf(l.pageId);
    const done = statementOf(l, { verb: { id: VERBS.completed }, result: { score: { scaled: 1 } } });
    expect((await xapi(w, l, { method: 'POST', payload: done })).statusCode).toBe(200);
    expect(await pageOf(l.pageId)).toEqual(closed);
  });
});
