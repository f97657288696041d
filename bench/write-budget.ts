/**
 * The note table of issue 36 (decision 0055): for every road a learner writes by, the most one
 * learner and 250 accounts can store in a minute and in a day, beside the configured budget.
 *
 * What is measured: the write budget as the database enforces it. For each road the script
 * charges one learner flat out, through `spend` (modules/quotas/budget.ts: the very call every
 * store makes in its transaction), with the largest request the route accepts, on a fresh
 * database — SQLite in memory, or a schema of its own on the PostgreSQL of DATABASE_URL — for
 * one minute and then minute after minute through a whole UTC day (a simulated clock: the day
 * takes seconds). It counts what was accepted before each refusal. 250 accounts can store 250
 * times one learner's share (each account's rows are its own; the tenant's figure only alarms):
 * the flood test apps/api/test/modules/quotas/fair-ceilings.test.ts shows that on both
 * databases, and the script checks it on a sample of accounts.
 *
 * Not part of `npm run bench`; run alone:
 *   npx tsx bench/write-budget.ts                 (SQLite)
 *   DATABASE_URL=postgres://… npx tsx bench/write-budget.ts
 */
import { randomBytes } from 'node:crypto';
import { dropPgSchema, ensurePgSchema, migrateToLatest, openDb } from '@parcours/api/db/db';
import type { DbHandle } from '@parcours/api/db/db';
import { loadEnv } from '@parcours/api/env';
import { writeTx } from '@parcours/api/db/tx';
import { registerBudget, spend } from '@parcours/api/modules/quotas/budget';
import type { Road } from '@parcours/api/modules/quotas/budget';
import { quotasFrom } from '@parcours/api/modules/quotas/config';
import { ATTACHMENT_MAX_BYTES, LOGBOOK_MESSAGE_MAX, LOGBOOK_TITLE_MAX } from '@parcours/domain/logbook';

const MiB = 1024 * 1024;
/** The largest request of each road the routes accept: rows and bytes stored by one request. */
const REQUEST: Record<Road, { rows: number; bytes: number; what: string }> = {
  // 500 statements per request (resource.ts MAX_LIMIT), the body within Fastify's 1 MiB.
  statements: { rows: 500, bytes: MiB, what: 'statements' },
  documents: { rows: 1, bytes: MiB, what: 'State / agent profile writes' },
  attachments: { rows: 1, bytes: MiB, what: 'attachment parts' },
  // The packages origin's body limit (origin.ts): 2 MiB of cmi.
  commits: { rows: 1, bytes: 2 * MiB, what: 'SCORM commits' },
  uploads: { rows: 1, bytes: ATTACHMENT_MAX_BYTES, what: 'uploads' },
  notes: { rows: 1, bytes: LOGBOOK_TITLE_MAX + LOGBOOK_MESSAGE_MAX, what: 'log-book notes' },
  launches: { rows: 1, bytes: 400, what: 'launches (credentials rows)' },
};
const ROADS = Object.keys(REQUEST) as Road[];
const ACCOUNTS = 250;

async function open(): Promise<{ handle: DbHandle; close: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const handle = openDb({});
    await migrateToLatest(handle.db);
    return { handle, close: () => handle.close() };
  }
  const schema = `bench_budget_${randomBytes(4).toString('hex')}`;
  await ensurePgSchema(url, schema);
  const handle = openDb({ databaseUrl: url, pgSchema: schema, poolSize: 4 });
  await migrateToLatest(handle.db, { pgSchema: schema });
  return {
    handle,
    close: async () => {
      await handle.close();
      await dropPgSchema(url, schema);
    },
  };
}

interface Stored {
  rows: number;
  bytes: number;
}

async function main() {
  const quotas = quotasFrom(loadEnv({ ...process.env, JWT_SECRET: 'x'.repeat(40) }));
  const { handle, close } = await open();
  const { db, kind } = handle;
  registerBudget(db, quotas, () => undefined);
  const day = Date.parse('2026-01-05T00:00:00.000Z');

  /**
   * One learner writing `road` flat out for `minutes`: the largest request first; once refused,
   * requests half as large, down to one row of one byte, so what is left of a limit is used too.
   */
  async function flood(road: Road, userId: string, minutes: number): Promise<Stored> {
    const r = REQUEST[road];
    const got = { rows: 0, bytes: 0 };
    for (let m = 0; m < minutes; m++) {
      const now = new Date(day + m * 60_000 + 1000);
      for (let f = 1; f >= 1 / 2 ** 21;) {
        const req = {
          rows: Math.max(1, Math.floor(r.rows * f)),
          bytes: Math.max(1, Math.floor(r.bytes * f)),
        };
        try {
          await writeTx(db, kind, (trx) =>
            spend(trx, { quotas, alarm: () => undefined }, { contextId: 'bench', userId, road, ...req }, now),
          );
          got.rows += req.rows;
          got.bytes += req.bytes;
        } catch (err) {
          const status = (err as { statusCode?: number }).statusCode;
          if (status !== 429 && status !== 413) throw err;
          if (req.rows === 1 && req.bytes === 1) {
            // 413: a stored total is reached; waiting frees nothing, the day is over.
            if (status === 413) return got;
            break;
          }
          f /= 2;
        }
      }
    }
    return got;
  }

  const mb = (b: number) => `${(b / MiB).toFixed(1)} MiB`;
  const lines = [
    `database: ${kind}`,
    '| road | one learner, a minute | one learner, a day | 250 accounts, a minute | 250 accounts, a day |',
    '|---|---|---|---|---|',
  ];
  for (const road of ROADS) {
    const minute = await flood(road, `m-${road}`, 1);
    const whole = await flood(road, `d-${road}`, 24 * 60);
    // 250 accounts: each its own share; checked on a sample (identical shares), then multiplied.
    const sample = await Promise.all([1, 2, 3].map((i) => flood(road, `s${i}-${road}`, 1)));
    if (sample.some((s) => s.rows !== minute.rows)) throw new Error(`${road}: accounts' shares differ`);
    const cell = (s: Stored, n = 1) =>
      `${(s.rows * n).toLocaleString('en')} ${REQUEST[road].what}, ${mb(s.bytes * n)}`;
    lines.push(
      `| ${road} | ${cell(minute)} | ${cell(whole)} | ${cell(minute, ACCOUNTS)} | ${cell(whole, ACCOUNTS)} |`,
    );
  }
  console.log(lines.join('\n'));
  await close();
}

void main();
