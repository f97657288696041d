import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDatabaseOf } from '../../src/db/prepared';
import { commitGrade } from '../../src/modules/lesson-pages/answer';
import { ContentCache } from '../../src/modules/lesson-pages/content-cache';
import { blockOf, nodeOf } from '../../src/modules/lesson-pages/context';
import { loadForWrite } from '../../src/modules/lesson-pages/lesson-state';
import { flushEmitted } from '../../src/modules/lrs/emit';
import type { PageDoc, PlayWorld } from '../helpers/player';
import { PLAY_HOST, freshPractice, playLogin, player, startPlayWorld } from '../helpers/player';
import { countStatements } from '../helpers/statements';

/**
 * Decision 0016: one answer (PATCH …/pages/current, a fresh page that does not end the lesson)
 * executes at most 5 SQL statements on SQLite, counted at better-sqlite3 itself — every
 * statement run, whoever runs it (Kysely, prepared queries, the write batcher's BEGIN/COMMIT),
 * authentication included. A trigger's body runs inside the statement that fires it and is not
 * a statement of its own; what it writes is checked here too (XP, lesson score).
 * Not timed: statements are counted, not measured.
 */
let w: PlayWorld;
let token: string;

beforeAll(async () => {
  w = await startPlayWorld();
  token = await playLogin(w.app, 'ann');
});
afterAll(async () => w?.close());

/**
 * The learning record of an answer (issue 14) is written after the answer's commit, in a later
 * batch off its path (modules/lrs/emit.ts): outside the answer's budget. Earlier requests' records
 * are flushed before counting; this request's own are queued for later and not counted.
 */
/**
 * Background work is not the call's: the learning record queued by an answer (lrs/emit.ts,
 * decision 0017) and the LRS forwarder's rounds. With the viewer read again after a write's
 * commit (decision 0059), the record's first statements may start before the answer is sent.
 */
const BACKGROUND =
  /"tincan_identifier" from "users"|from "lessons" where "id" in|inner join "course_nodes" as "n"|xapi_/;

async function counted<T>(fn: () => Promise<T>): Promise<{ value: T; statements: string[] }> {
  await flushEmitted(w.tdb.db);
  const { value, statements } = await countStatements(w.tdb, fn);
  return { value, statements: statements.filter((q) => !BACKGROUND.test(q)) };
}

const doc = (res: { json(): unknown }) => (res.json() as PageDoc).data;

describe.runIf(!process.env.DATABASE_URL)('statements per answer (SQLite)', () => {
  it('answering a fresh page runs at most 5 statements, and still credits XP and the lesson', async () => {
    expect(sqliteDatabaseOf(w.tdb.db)).toBeDefined();
    const L = w.lessons.ann.practice;
    const p = player(w.app, token);
    const intro = doc(await p.current(L));
    expect((await p.answer(L, intro.id)).statusCode).toBe(200);
    const mc = doc(await p.next(L, intro.id));

    // Sanity: the counter sees statements at all (a read of the current page runs several).
    const read = await counted(() => p.current(L));
    expect(read.statements.length).toBeGreaterThan(0);

    const { value: res, statements } = await counted(() => p.answer(L, mc.id, [[0, 2]]));
    expect(res.statusCode).toBe(200);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(5);

    const user = await w.tdb.db
      .selectFrom('users')
      .select(['scoring', 'donePageCount'])
      .where('id', '=', w.users.ann)
      .executeTakeFirstOrThrow();
    expect(Number((JSON.parse(user.scoring) as { xp?: number }).xp)).toBe(10);
    expect(user.donePageCount).toBe(2);
    const lesson = await w.tdb.db
      .selectFrom('lessons')
      .select(['scoring', 'progress', 'startedAt'])
      .where('id', '=', L)
      .executeTakeFirstOrThrow();
    expect((JSON.parse(lesson.scoring) as { global: unknown }).global).toEqual({ actual: 10, max: 10 });
    expect(lesson.progress).toBe('ONGOING');
    expect(lesson.startedAt).not.toBeNull();
    // The response's lesson score is the one written.
    expect(
      (res.json() as { data: { attributes: { lessonScoring?: unknown } } }).data.attributes.lessonScoring,
    ).toEqual({
      global: { actual: 10, max: 10 },
    });
  });
});

/**
 * Decision 0025: on PostgreSQL too, an answer that does not end its lesson is the viewer read, the
 * lesson read and ONE statement (its own transaction; the check under the lesson's lock, migration
 * 0017) — three round trips, where the full path took eight (BEGIN, the UPDATE, the lesson's touch,
 * its pages, its write, COMMIT). Seen to fail (8 queries) before the change.
 */
describe.runIf(!!process.env.DATABASE_URL)('round trips per answer (PostgreSQL)', () => {
  it('answering a fresh page sends 3 queries, and still credits XP and the lesson', async () => {
    const L = w.lessons.ann.practice;
    const p = player(w.app, token);
    const intro = doc(await p.current(L));
    expect((await p.answer(L, intro.id)).statusCode).toBe(200);
    const mc = doc(await p.next(L, intro.id));
    const { value: res, statements } = await counted(() => p.answer(L, mc.id, [[0, 2]]));
    expect(res.statusCode).toBe(200);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(3);
    expect(statements.filter((q) => /^(begin|commit)/i.test(q))).toEqual([]);
    const user = await w.tdb.db
      .selectFrom('users')
      .select(['scoring', 'donePageCount'])
      .where('id', '=', w.users.ann)
      .executeTakeFirstOrThrow();
    expect(Number((JSON.parse(user.scoring) as { xp?: number }).xp)).toBe(10);
    expect(user.donePageCount).toBe(2);
    const lesson = await w.tdb.db
      .selectFrom('lessons')
      .select(['scoring', 'progress', 'startedAt'])
      .where('id', '=', L)
      .executeTakeFirstOrThrow();
    expect((JSON.parse(lesson.scoring) as { global: unknown }).global).toEqual({ actual: 10, max: 10 });
    expect(lesson.progress).toBe('ONGOING');
    expect(lesson.startedAt).not.toBeNull();
  });
});

describe('the fast path checks its read (both databases)', () => {
  it('a page of the lesson completed behind the read: the one statement writes nothing, the full path decides', async () => {
    const L = w.lessons.ben.practice;
    const benToken = await playLogin(w.app, 'ben');
    const p = player(w.app, benToken);
    const intro = doc(await p.current(L));
    expect((await p.answer(L, intro.id)).statusCode).toBe(200);
    const mc = doc(await p.next(L, intro.id));
    const { contextId } = await w.tdb.db
      .selectFrom('lessons')
      .select('contextId')
      .where('id', '=', L)
      .executeTakeFirstOrThrow();
    const ctx = {
      db: w.tdb.db,
      kind: w.tdb.kind,
      contextId,
      userId: w.users.ben,
      receivedAt: w.clock.now(),
      cache: new ContentCache(),
    };
    const l = await loadForWrite(ctx, L);
    const page = l.pages.find((pg) => pg.id === mc.id)!;
    const { node } = nodeOf(l, page);
    // Another server process completes the next page meanwhile (as its own answer would leave it).
    const free = l.plan.slots[page.position + 1]?.node ?? l.plan.slots[2]!.node;
    await w.tdb.db
      .insertInto('lessonPages')
      .values({
        id: 'behind-the-read',
        lessonId: L,
        nodeId: free.id,
        sectionId: l.plan.slotOfNode(free.id)!.sectionId,
        attempt: 1,
        position: 2,
        state: 'ACTIVE',
        progress: 'COMPLETED',
        scoreActual: 3,
        scoreMax: 4,
        openedAt: ctx.receivedAt.toISOString(),
        answeredAt: ctx.receivedAt.toISOString(),
        createdAt: ctx.receivedAt.toISOString(),
        updatedAt: ctx.receivedAt.toISOString(),
      })
      .execute();
    const content = await blockOf(ctx, node);
    const { value: after, statements } = await counted(() =>
      commitGrade(ctx, l, { page, content, answers: [[0, 2]], skipped: false }),
    );
    expect(after).not.toBeNull();
    // The guarded statement, then the full path in its own savepoint: more than the fast path's 2.
    expect(statements.filter((q) => /^update "lesson_pages"/.test(q))).toHaveLength(2);
    expect(statements.length).toBeGreaterThan(w.tdb.kind === 'sqlite' ? 5 : 3);
    // The full path re-read the lesson's pages inside the transaction: the page written behind counts.
    expect((JSON.parse(after!.lesson.scoring) as { global: unknown }).global).toEqual({
      actual: 13,
      max: 14,
    });
    const lesson = await w.tdb.db
      .selectFrom('lessons')
      .select('scoring')
      .where('id', '=', L)
      .executeTakeFirstOrThrow();
    expect((JSON.parse(lesson.scoring) as { global: unknown }).global).toEqual({ actual: 13, max: 14 });
    const user = await w.tdb.db
      .selectFrom('users')
      .select('scoring')
      .where('id', '=', w.users.ben)
      .executeTakeFirstOrThrow();
    expect(Number((JSON.parse(user.scoring) as { xp?: number }).xp)).toBe(10);
  });
});

/**
 * Decision 0025, the player's other calls on PostgreSQL, content already cached (a first lesson
 * of the same course is walked first): reading the current page is the viewer and the lesson
 * with its pages in one statement (it was the lesson, then its pages: 3 round trips, now 2 —
 * a lesson outside a class program has no siblings to read); moving to a new page is the viewer,
 * the lesson with its window and pages, and ONE statement inserting the page and moving the
 * lesson (it was 10: the lesson, its window, its pages, BEGIN, the attempt, the insert, its read
 * back, the lesson's update, COMMIT). Seen to fail (3 and 10) before the change. Since decision
 * 0068 the read is kept in the answer cache: built, 3 (the stamps read from the database first);
 * kept, the stamps alone.
 */
describe.runIf(!!process.env.DATABASE_URL)('round trips per page read and move (PostgreSQL)', () => {
  it('GET …/pages/current sends 2 queries, POST …/pages/next to a new page 3', async () => {
    const p = player(w.app, token);
    const walk = async (L: string) => {
      const intro = doc(await p.current(L));
      expect((await p.answer(L, intro.id)).statusCode).toBe(200);
      return intro;
    };
    const warm = await freshPractice(w, 'ann');
    const warmIntro = await walk(warm);
    const warmMc = doc(await p.next(warm, warmIntro.id));
    expect((await p.answer(warm, warmMc.id, [[0, 2]])).statusCode).toBe(200);

    const L = await freshPractice(w, 'ann');
    const intro = await walk(L);
    const moved = await counted(() => p.next(L, intro.id));
    expect(moved.value.statusCode).toBe(200);
    expect(moved.statements.length, moved.statements.join('\n')).toBeLessThanOrEqual(3);
    expect(moved.statements.filter((q) => /^(begin|commit)/i.test(q))).toEqual([]);
    const mc = doc(moved.value);
    // Decision 0068: the page read takes its stamps from the database (one statement more when
    // the page is built: the move above moved them) and, when they say nothing moved, sends the
    // page kept in the answer cache: the stamps' read alone.
    const current = await counted(() => p.current(L));
    expect(doc(current.value).id).toBe(mc.id);
    expect(current.statements.length, current.statements.join('\n')).toBeLessThanOrEqual(3);
    const kept = await counted(() => p.current(L));
    expect(kept.value.body).toBe(current.value.body);
    expect(kept.statements, kept.statements.join('\n')).toEqual([
      expect.stringMatching(/^select "key", "version" from "home_versions"/),
    ]);
    // The page was created once, as attempt 1, and the lesson moved to it.
    const pages = await w.tdb.db
      .selectFrom('lessonPages')
      .select(['id', 'attempt', 'state'])
      .where('lessonId', '=', L)
      .where('nodeId', '=', mc.attributes.nodeId)
      .execute();
    expect(pages).toEqual([{ id: mc.id, attempt: 1, state: 'ACTIVE' }]);
    const lesson = await w.tdb.db
      .selectFrom('lessons')
      .select(['currentNodeId', 'progress'])
      .where('id', '=', L)
      .executeTakeFirstOrThrow();
    expect(lesson).toEqual({ currentNodeId: mc.attributes.nodeId, progress: 'ONGOING' });
  });
});

/**
 * Decision 0025: the home's lessons, recomputed after a write moved the learner's stamp, use the
 * stamps read in the viewer's statement for their content caches too, instead of reading
 * `home_versions` again (5 round trips instead of 6 on PostgreSQL). Seen failing before (the
 * separate read of the stamps). Both databases.
 */
describe('the home reads its stamps once', () => {
  it('GET /api/lessons after an answer does not read home_versions apart from the viewer', async () => {
    const benToken = await playLogin(w.app, 'ben');
    const home = () =>
      w.app.inject({
        method: 'GET',
        url: `/api/lessons?filter[userId]=${w.users.ben}&include=course`,
        headers: { host: PLAY_HOST, authorization: `Bearer ${benToken}` },
      });
    expect((await home()).statusCode).toBe(200);
    // A write of ben's: his stamp moves, the home's answer is rebuilt.
    const L = await freshPractice(w, 'ben');
    const p = player(w.app, benToken);
    const intro = doc(await p.current(L));
    expect((await p.answer(L, intro.id)).statusCode).toBe(200);
    const { value: res, statements } = await counted(home);
    expect(res.statusCode).toBe(200);
    expect(statements.filter((q) => /^select "key", "version" from "home_versions"/.test(q))).toEqual([]);
    // Still rebuilt (the lessons read again), and still holding the new lesson.
    expect(statements.some((q) => /from "lessons"/.test(q))).toBe(true);
    expect((res.json() as { data: { id: string }[] }).data.map((d) => d.id)).toContain(L);
  });
});
