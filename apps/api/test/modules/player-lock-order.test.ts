import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PageDoc, PlayWorld } from '../helpers/player';
import { playLogin, player, startPlayWorld } from '../helpers/player';

/**
 * Lock order on PostgreSQL: an answer locks its page, then the learner (the trigger of migration
 * 0013, and 0017's check), then the lesson. A ping must take the learner before the lesson too,
 * or a ping on one page and an answer on another page of the same lesson can each hold the row
 * the other waits for — a deadlock, which PostgreSQL ends by failing one of them.
 *
 * Made deterministic with a second connection standing in for the answer: it holds the learner's
 * row, the ping is sent and waits for it (seen in pg_stat_activity, not timed), then the second
 * connection asks for the lesson's row, as the trigger does next. With the ping holding the
 * lesson (the old order), that is a cycle and PostgreSQL fails one side after `deadlock_timeout`;
 * in the answer's order, the lesson is free, the "answer" commits and the ping goes on.
 * Seen failing (deadlock detected) with the lesson locked before the learner.
 */
let w: PlayWorld;
let token: string;

beforeAll(async () => {
  w = await startPlayWorld();
  token = await playLogin(w.app, 'ann');
});
afterAll(async () => w?.close());

const doc = (res: { json(): unknown }) => (res.json() as PageDoc).data;

describe.runIf(!!process.env.DATABASE_URL)('lock order (PostgreSQL)', () => {
  it('a ping waiting on the learner holds nothing an answer needs next: no deadlock', async () => {
    const L = w.lessons.ann.practice;
    const p = player(w.app, token);
    const page = doc(await p.current(L));
    // Time has passed since the page opened: the ping adds it to the lesson and the learner.
    w.clock.advance(5);

    const outcome = await w.tdb.db.transaction().execute(async (trx) => {
      // The "answer": its page is another one; it holds the learner, as the trigger does first.
      await sql`select 1 from users where id = ${w.users.ann} for update`.execute(trx);
      const ping = p.ping(L, page.id);
      // Until the ping's backend waits for a lock on its write of the learner's time.
      await vi.waitFor(
        async () => {
          const { rows } = await sql<{ n: number }>`
            select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and query ilike '%time_alive%' and datname = current_database()`.execute(
            w.tdb.db,
          );
          if (rows[0]!.n === 0) throw new Error('the ping does not wait yet');
        },
        { timeout: 15_000, interval: 10 },
      );
      // The trigger's next lock: the lesson.
      await sql`select 1 from lessons where id = ${L} for update`.execute(trx);
      // Wrapped: returning the promise itself would wait for the ping inside this transaction.
      return { ping };
    });
    const res = await outcome.ping;
    expect(res.statusCode, res.body).toBe(204);
    const lesson = await w.tdb.db
      .selectFrom('lessons')
      .select(['timeAlive'])
      .where('id', '=', L)
      .executeTakeFirstOrThrow();
    expect(Number(lesson.timeAlive)).toBe(5);
  });
});
