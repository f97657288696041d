import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushEmitted } from '../../../src/modules/lrs/emit';
import { TINCAN_HOST, doc, startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';
import { VERBS, launchFor } from './world';

/**
 * The player's own statements, written after each answer's commit into the same store: launched
 * (module launch), answered with the result, hint unlocked, lesson completed (once).
 */
let w: TincanWorld;

beforeAll(async () => {
  w = await startTincanWorld('lrs-player');
});
afterAll(async () => {
  await w?.close();
});

interface Body {
  actor: { account: { name: string } };
  verb: { id: string };
  object: { id: string };
  result?: { score?: { raw: number; max: number; scaled: number }; success?: boolean; completion?: boolean };
  context?: { registration?: string };
}

async function statementsOf(userId: string): Promise<Body[]> {
  await flushEmitted(w.t.db);
  const rows = await w.t.db
    .selectFrom('xapiStatements')
    .select('body')
    .where('userId', '=', userId)
    .orderBy('stored')
    .execute();
  return rows.map((r) => JSON.parse(r.body) as Body);
}

describe('statements of the player', () => {
  it('launched, answered with the result, hint unlocked and one lesson completion, for the learner', async () => {
    const l = await launchFor(w, w.learnerToken, w.learnerId);
    const p = w.client(w.learnerToken);
    const headers = { host: TINCAN_HOST, authorization: `Bearer ${w.learnerToken}` };
    // The module's score through the message, then the rest of the lesson: a hint on the next
    // exercise, every page closed up to the end.
    expect(
      (
        await p.score(l.lessonId, {
          pageId: l.pageId,
          launch: await launchOf(l.pageId),
          score: { scaled: 0.5 },
        })
      ).statusCode,
    ).toBe(200);
    let res = await p.next(l.lessonId, l.pageId);
    let hinted = false;
    for (let guard = 0; guard < 30 && res.statusCode === 200; guard++) {
      const page = doc(res);
      const child = (page.attributes as { children?: { nodeId: string }[] }).children?.[0];
      if (child && !page.attributes.answeredAt) {
        res = await p.choose(l.lessonId, page.id, child.nodeId);
        continue;
      }
      if (!hinted && (page.attributes.block?.settings as { hintCount?: number } | undefined)?.hintCount) {
        const hint = await w.app.inject({
          method: 'POST',
          url: `/api/lessons/${l.lessonId}/pages/current/hints`,
          headers,
          payload: { pageId: page.id },
        });
        expect(hint.statusCode, hint.body).toBe(200);
        hinted = true;
      }
      if (!page.attributes.answeredAt) {
        const closed = await p.close(l.lessonId, page.id);
        expect(closed.statusCode, closed.body).toBe(200);
      }
      res = await p.next(l.lessonId, page.id);
    }
    expect(hinted).toBe(true);
    const lesson = await w.t.db
      .selectFrom('lessons')
      .select('progress')
      .where('id', '=', l.lessonId)
      .executeTakeFirstOrThrow();
    expect(lesson.progress).toBe('COMPLETED');

    const all = await statementsOf(w.learnerId);
    expect(all.every((s) => s.actor.account.name === w.learnerId)).toBe(true);
    const verbs = all.map((s) => s.verb.id);
    expect(verbs).toContain(VERBS.launched);
    const scored = all.find(
      (s) =>
        s.verb.id === 'http://adlnet.gov/expapi/verbs/answered' && s.context?.registration === l.registration,
    );
    expect(scored?.result).toMatchObject({
      completion: true,
      score: { raw: 5, max: 10, scaled: 0.5 },
      success: false,
    });
    expect(verbs).toContain('http://id.tincanapi.com/verb/unlocked');
    const completions = all.filter(
      (s) => s.verb.id === VERBS.completed && s.object.id === `urn:parcours:lesson:${l.lessonId}`,
    );
    expect(completions).toHaveLength(1);
    // Nothing of this learner is visible to the teacher's statements.
    expect((await statementsOf(w.teacherId)).length).toBe(0);
  });
});

async function launchOf(pageId: string): Promise<string> {
  const row = await w.t.db
    .selectFrom('lessonPages')
    .select('launchToken')
    .where('id', '=', pageId)
    .executeTakeFirstOrThrow();
  return row.launchToken ?? '';
}
