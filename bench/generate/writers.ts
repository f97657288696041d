import SQLite from 'better-sqlite3';
import pg from 'pg';
import { TABLES } from './tables';
import type { Batch, TableName } from './tables';

/** Where generated rows go: the server's SQLite file or its PostgreSQL database. */
export interface Writer {
  write(batch: Batch): Promise<void>;
  /** Row counts of the tables the benches report. */
  counts(): Promise<{ users: number; lessons: number; pages: number }>;
  /**
   * PostgreSQL: ANALYZE, what autovacuum does soon after such a load in production (planner
   * statistics). SQLite: nothing — the server never runs ANALYZE there, so neither does the bench.
   */
  analyze(): Promise<void>;
  close(): Promise<void>;
}

const names = Object.keys(TABLES) as TableName[];
const quoted = (table: TableName) => TABLES[table].map(([c]) => `"${c}"`).join(', ');

/**
 * SQLite: one prepared INSERT per table, a whole batch in one transaction. Foreign keys are not
 * checked on this connection (rows are consistent by construction, as a bulk loader would do).
 */
export function sqliteWriter(file: string): Writer {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = OFF');
  // SQLite's default 2 MB page cache makes every insert into lesson_pages' six indexes read and
  // write pages once the file outgrows it; a loader keeps them in memory.
  db.pragma('cache_size = -524288');
  const inserts = new Map(
    names.map((t) => [
      t,
      db.prepare(`insert into "${t}" (${quoted(t)}) values (${TABLES[t].map(() => '?').join(', ')})`),
    ]),
  );
  const run = db.transaction((batch: Batch) => {
    for (const t of names) {
      const insert = inserts.get(t)!;
      for (const row of batch[t]) insert.run(row);
    }
  });
  return {
    write: async (batch) => run(batch),
    counts: async () =>
      db
        .prepare(
          'select (select count(*) from users) as users, (select count(*) from lessons) as lessons, (select count(*) from lesson_pages) as pages',
        )
        .get() as { users: number; lessons: number; pages: number },
    analyze: async () => {},
    close: async () => void db.close(),
  };
}

const PG_TYPES = { text: 'text', integer: 'int4', real: 'float4' } as const;
/** Rows per statement: one array parameter per column, so the count is bounded only by memory. */
const PG_CHUNK = 20_000;

/**
 * PostgreSQL: per table, `insert … select * from unnest($1::text[], $2::int4[], …)` — one
 * statement for thousands of rows, the whole batch in one transaction.
 */
export function postgresWriter(databaseUrl: string): Writer {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  return {
    async write(batch) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        // As for SQLite, foreign keys are not checked for these rows (consistent by construction):
        // their per-row triggers would cost more than the inserts. Needs a superuser, else checked.
        await client.query('savepoint fk');
        await client
          .query('set local session_replication_role = replica')
          .catch(() => client.query('rollback to savepoint fk'));
        for (const t of names) {
          const columns = TABLES[t];
          const rows = batch[t];
          for (let start = 0; start < rows.length; start += PG_CHUNK) {
            const chunk = rows.slice(start, start + PG_CHUNK);
            const arrays = columns.map((_, k) => chunk.map((row) => row[k] ?? null));
            const casts = columns.map(([, type], k) => `$${k + 1}::${PG_TYPES[type]}[]`).join(', ');
            await client.query(`insert into "${t}" (${quoted(t)}) select * from unnest(${casts})`, arrays);
          }
        }
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
    async counts() {
      const { rows } = await pool.query<{ users: string; lessons: string; pages: string }>(
        'select (select count(*) from users) as users, (select count(*) from lessons) as lessons, (select count(*) from lesson_pages) as pages',
      );
      const r = rows[0]!;
      return { users: Number(r.users), lessons: Number(r.lessons), pages: Number(r.pages) };
    },
    analyze: async () => void (await pool.query('analyze')),
    close: () => pool.end(),
  };
}
