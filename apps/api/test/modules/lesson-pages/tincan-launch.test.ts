import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TestDb } from '../../helpers/test-db';
import { doc, errorsOf, startTincanWorld } from '../../helpers/tincan';
import type { TincanWorld } from '../../helpers/tincan';

/**
 * Issue 10 finding 5 (decision 0009): a learning module's score is accepted only for a module
 * launch the server issued to that learner for that page (`tincanLaunch` of the served page,
 * stored in the database), once, within the page's time. The demo course "Health and safety at
 * work" (English tenant) has a tincan page, the fifth; each test takes a fresh lesson of it.
 */
let w: TincanWorld;
let t: TestDb;
let peer: FastifyInstance;
let learnerToken: string;

beforeAll(async () => {
  w = await startTincanWorld('tincan-launch');
  ({ t, peer, learnerToken } = w);
});
afterAll(async () => {
  await w?.close();
});

const login = (email: string, password: string) => w.login(email, password);
const client = (token: string, on?: FastifyInstance) => w.client(token, on);
const learnerState = (lessonId: string) => w.learnerState(lessonId);
const toTincan = () => w.toTincan();

describe('finding 5: a module score needs a launch the server issued', () => {
  it('the served module page carries a launch; slides and exercises do not', async () => {
    const { launch, before } = await toTincan();
    expect(typeof launch).toBe('string');
    expect((launch as string).length).toBeGreaterThanOrEqual(32);
    for (const page of before)
      expect((page.attributes as { tincanLaunch?: unknown }).tincanLaunch ?? null).toBeNull();
  });

  it('a score without a launch (the module never loaded): refused, nothing graded', async () => {
    const { lessonId, pageId } = await toTincan();
    const before = await learnerState(lessonId);
    const res = await client(learnerToken).score(lessonId, { pageId, score: { scaled: 1 } });
    expect(res.statusCode).toBe(400);
    expect(errorsOf(res).map((e) => e.source?.pointer)).toContain('/launch');
    expect(await learnerState(lessonId)).toEqual(before);
  });

  it('a made-up launch, or the launch of another page: 403, nothing graded', async () => {
    const a = await toTincan();
    const b = await toTincan();
    const before = await learnerState(a.lessonId);
    for (const launch of ['0'.repeat(43), b.launch]) {
      const res = await client(learnerToken).score(a.lessonId, {
        pageId: a.pageId,
        launch,
        score: { scaled: 1 },
      });
      expect(res.statusCode, res.body).toBe(403);
      expect(errorsOf(res)[0]?.code).toBe('Forbidden');
    }
    expect(await learnerState(a.lessonId)).toEqual(before);
  });

  it('the launch the server gave: recorded once; the same launch again is refused', async () => {
    const { lessonId, pageId, launch } = await toTincan();
    // Served again (a reload): the same launch.
    const again = doc(await client(learnerToken).current(lessonId));
    expect((again.attributes as { tincanLaunch?: unknown }).tincanLaunch).toBe(launch);
    const res = await client(learnerToken).score(lessonId, { pageId, launch, score: { scaled: 0.5 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(doc(res).attributes.results?.score).toEqual({ actual: 5, max: 10 });
    // Answered: no launch is handed out for it any more.
    expect((doc(res).attributes as { tincanLaunch?: unknown }).tincanLaunch ?? null).toBeNull();
    const after = await learnerState(lessonId);
    const replay = await client(learnerToken).score(lessonId, { pageId, launch, score: { scaled: 1 } });
    expect(replay.statusCode).toBe(409);
    expect(await learnerState(lessonId)).toEqual(after);
  });

  it("another learner's launch on their own page is no use to me (404: not my lesson)", async () => {
    const { lessonId, pageId, launch } = await toTincan();
    const teacher = client(await login('teacher@example.com', 'Teacher#2026'));
    const res = await teacher.score(lessonId, { pageId, launch, score: { scaled: 1 } });
    expect(res.statusCode).toBe(404);
  });

  it('a launch is kept in the database: two server processes agree on it', async () => {
    const { lessonId, pageId, launch } = await toTincan();
    const res = await client(learnerToken, peer).score(lessonId, { pageId, launch, score: { scaled: 1 } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('past the page time limit, even with its launch: 409 LESSON_PAGE_SKIPPED, 0 points', async () => {
    const { lessonId, pageId, launch } = await toTincan();
    await t.db
      .updateTable('lessonPages')
      .set({ timeLimit: 60, openedAt: new Date(Date.now() - 10 * 60_000).toISOString() })
      .where('id', '=', pageId)
      .execute();
    const res = await client(learnerToken).score(lessonId, { pageId, launch, score: { scaled: 1 } });
    expect(res.statusCode).toBe(409);
    expect(errorsOf(res)[0]?.code).toBe('LESSON_PAGE_SKIPPED');
    const page = doc(await client(learnerToken).current(lessonId, `?pageId=${pageId}`));
    expect(page.attributes.results).toMatchObject({ score: { actual: 0 }, skipped: true });
  });
});
