import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Db, DbKind } from './db';
import { registerSqliteConnection, sqliteDatabaseOf, timed } from './prepared';
import type { Database } from './schema';
import { opsFigures } from '../lib/ops-figures';
import { refuseWriteTx } from './read-only';

export type Tx = Kysely<Database>;

/**
 * One transaction per write (docs/architecture.md §4: never a partial write).
 *
 * PostgreSQL: READ COMMITTED; the guarantees come from conditional updates and unique indexes
 * (a second UPDATE of the same row waits for the first and re-checks its WHERE clause).
 *
 * SQLite: group commit (decision 0007). SQLite has one writer, and committing was the largest
 * cost of an answer, so the writes waiting for the connection are run together: one
 * `BEGIN IMMEDIATE` … `COMMIT`, each write inside its own savepoint. A write that fails is
 * rolled back to its savepoint alone and rejects alone; the others commit. Every caller is
 * answered only after the COMMIT that holds its write, so nothing is reported saved before it
 * is. `BEGIN IMMEDIATE` takes the write lock up front, so two server processes on one file
 * cannot both read a page as unanswered and then collide when upgrading to a writer.
 *
 * `oneStatement`: the write is a single SQL statement (decision 0016: an answer, whose trigger
 * does the rest). SQLite makes a statement atomic by itself — on an error its changes are undone
 * and the transaction goes on — so it needs no savepoint: two statements fewer per answer.
 */
export async function writeTx<T>(
  db: Db,
  kind: DbKind,
  fn: (trx: Tx) => Promise<T>,
  opts: { oneStatement?: boolean } = {},
): Promise<T> {
  // A drawn page's reads (db/read-only.ts) never get here: refused before anything is queued.
  refuseWriteTx();
  if (kind === 'postgres') return db.transaction().execute(fn);
  return batcherOf(db).submit(fn, opts.oneStatement === true);
}

interface Job {
  fn: (trx: Tx) => Promise<unknown>;
  oneStatement: boolean;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

/**
 * A batch is bounded so one commit never holds very many callers' answers. 256, not 64 (0016
 * addendum): with 100 learners answering at once, a turn of the event loop often read more than
 * 64 answers; the rest then waited for the next turn, behind the requests read meanwhile, which
 * pushed their latency up (answering alone at 100 connections, p90 78 → 67–71 ms, p99 104–360 →
 * 87–113 ms, two runs each). Writes beyond the bound still go in the next batch.
 */
export const MAX_BATCH = 256;

class SqliteBatcher {
  private pending: Job[] = [];
  private draining = false;

  constructor(private readonly db: Db) {}

  submit<T>(fn: (trx: Tx) => Promise<T>, oneStatement: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ fn, oneStatement, resolve: resolve as (v: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length > 0) {
        // Let the requests read in this turn of the event loop reach their write first: under
        // load many arrive together, and they then share one commit. Alone, a write waits for
        // nothing more than the end of the current turn.
        await new Promise<void>((resolve) => setImmediate(resolve));
        await this.db.connection().execute(async (conn) => {
          // Taken once the connection is ours: everything queued while waiting joins this batch.
          const jobs = this.pending.splice(0, MAX_BATCH);
          await this.runBatch(conn, jobs);
        });
      }
    } finally {
      this.draining = false;
    }
  }

  private async runBatch(conn: Tx, jobs: Job[]): Promise<void> {
    const database = sqliteDatabaseOf(this.db);
    if (database) registerSqliteConnection(conn, database);
    // The connection is held: control statements run straight on better-sqlite3 when it is there.
    const exec = async (
      statement:
        'begin immediate' | 'savepoint job' | 'release job' | 'rollback to job' | 'commit' | 'rollback',
    ) => {
      if (database) timed(() => database.exec(statement));
      else await sql.raw(statement).execute(conn);
    };
    try {
      await exec('begin immediate');
    } catch (err) {
      for (const job of jobs) job.reject(err);
      return;
    }
    const outcomes: { ok: boolean; value: unknown }[] = [];
    for (const job of jobs) {
      if (job.oneStatement && database) {
        try {
          outcomes.push({ ok: true, value: await job.fn(conn) });
        } catch (err) {
          // The failed statement was undone by SQLite. Errors that end the whole transaction
          // (disk full, I/O) leave none open: then nothing of this batch is written.
          if (!database.inTransaction) {
            for (const j of jobs) j.reject(err);
            return;
          }
          outcomes.push({ ok: false, value: err });
        }
        continue;
      }
      await exec('savepoint job');
      try {
        const value = await job.fn(conn);
        await exec('release job');
        outcomes.push({ ok: true, value });
      } catch (err) {
        await exec('rollback to job');
        await exec('release job');
        outcomes.push({ ok: false, value: err });
      }
    }
    try {
      await exec('commit');
    } catch (err) {
      await exec('rollback').catch(() => undefined);
      for (const job of jobs) job.reject(err);
      return;
    }
    opsFigures.onBatch?.(jobs.length);
    jobs.forEach((job, i) =>
      outcomes[i]!.ok ? job.resolve(outcomes[i]!.value) : job.reject(outcomes[i]!.value),
    );
  }
}

const batchers = new WeakMap<Db, SqliteBatcher>();

function batcherOf(db: Db): SqliteBatcher {
  let b = batchers.get(db);
  if (!b) {
    b = new SqliteBatcher(db);
    batchers.set(db, b);
  }
  return b;
}
