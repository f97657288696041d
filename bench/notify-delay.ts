/**
 * The notification delay of decision 0059 (issue 38): how long after a write is acknowledged
 * another process's viewer copy has heard of it, on PostgreSQL, under a stream of writes.
 * Not part of `npm run bench`: `npx tsx bench/notify-delay.ts`.
 *
 * A viewer copy (apps/api/src/lib/viewer-copy.ts) listens on one pool, as an API process does;
 * `NOTIFY_WRITERS` (20) writers on another pool revoke the tokens of learners of their own
 * (`update users set tokens_valid_after`: one move of `u:{id}` each, the revocation's path) as
 * fast as they can for `NOTIFY_SECONDS` (10). Each move that reaches the copy is matched with its
 * write (one writer per learner, delivered in commit order) and timed from the write's
 * acknowledgement (what a client could have seen: the delay before every process refuses the
 * token) and from its sending. Prints the writes per second and p50 / p90 / p99 / max of both.
 * In a fresh schema of `DATABASE_URL` (default the local server's `test` database), dropped after.
 */
import { randomBytes } from 'node:crypto';
import { dropPgSchema, ensurePgSchema, migrateToLatest, openDb } from '../apps/api/src/db/db';
import { ViewerCopy } from '../apps/api/src/lib/viewer-copy';

const URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const WRITERS = Number(process.env.NOTIFY_WRITERS ?? 20);
const SECONDS = Number(process.env.NOTIFY_SECONDS ?? 10);
const T0 = '2026-01-01T00:00:00.000Z';

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
const line = (name: string, xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(2);
  return `${name}: p50 ${f(pct(s, 50))} ms, p90 ${f(pct(s, 90))} ms, p99 ${f(pct(s, 99))} ms, max ${f(s.at(-1) ?? NaN)} ms (${s.length} writes)`;
};

async function main(): Promise<void> {
  const schema = `nd_${randomBytes(5).toString('hex')}`;
  await ensurePgSchema(URL, schema);
  const listening = openDb({ databaseUrl: URL, pgSchema: schema, poolSize: 2 });
  const writing = openDb({ databaseUrl: URL, pgSchema: schema, poolSize: WRITERS });
  const copy = new ViewerCopy(listening.db);
  try {
    await migrateToLatest(writing.db, { pgSchema: schema });
    await writing.db
      .insertInto('contexts')
      .values({
        id: 'ctx',
        alias: 'nd',
        name: 'nd',
        hosts: '{}',
        assets: '{}',
        metas: '{}',
        settings: '{}',
        createdAt: T0,
        updatedAt: T0,
      })
      .execute();
    const users = Array.from({ length: WRITERS }, (_, i) => `u-${i}`);
    await writing.db
      .insertInto('users')
      .values(
        users.map((id) => ({
          id,
          contextId: 'ctx',
          email: `${id}@nd.test`,
          legal: '{}',
          createdAt: T0,
          updatedAt: T0,
        })),
      )
      .execute();
    await copy.whenListening();
    // The copy hears only of users it keeps: read each once, as a request of theirs would.
    for (const id of users) await copy.viewer('ctx', id, null);

    const pending = new Map<string, { sent: number; acked: number }[]>(users.map((id) => [id, []]));
    const fromAck: number[] = [];
    const fromSend: number[] = [];
    let measuring = true;
    copy.observe((key) => {
      const now = performance.now();
      const write = pending.get(key.slice(2))?.shift();
      if (!write || !measuring) return;
      // The move may reach the copy before the writer's own acknowledgement does.
      fromAck.push(Math.max(0, now - write.acked));
      fromSend.push(now - write.sent);
    });
    const end = performance.now() + SECONDS * 1000;
    let writes = 0;
    await Promise.all(
      users.map(async (id) => {
        while (performance.now() < end) {
          const write = { sent: performance.now(), acked: Infinity };
          pending.get(id)!.push(write);
          await writing.db
            .updateTable('users')
            .set({ tokensValidAfter: new Date().toISOString() })
            .where('id', '=', id)
            .execute();
          write.acked = performance.now();
          writes++;
        }
      }),
    );
    await copy.caughtUp();
    measuring = false;
    console.log(`notify-delay: ${WRITERS} writers, ${SECONDS} s, ${(writes / SECONDS).toFixed(0)} writes/s`);
    console.log(line('from acknowledgement', fromAck));
    console.log(line('from sending', fromSend));
  } finally {
    await copy.close();
    await listening.close();
    await writing.close();
    await dropPgSchema(URL, schema);
  }
}

await main();
