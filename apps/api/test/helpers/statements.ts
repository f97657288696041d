import pg from 'pg';
import { countSqliteStatements, sqliteDatabaseOf } from '../../src/db/prepared';
import type { TestDb } from './test-db';

/**
 * On PostgreSQL, every query sent to the server, counted where node-postgres sends it (each is a
 * round trip: BEGIN and COMMIT included), passed through unchanged.
 */
export function countPgQueries(): { stop(): string[] } {
  const seen: string[] = [];
  const original = pg.Client.prototype.query;
  const spy = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    seen.push(typeof first === 'string' ? first : String((first as { text?: string })?.text ?? first));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  pg.Client.prototype.query = spy as typeof original;
  return {
    stop() {
      pg.Client.prototype.query = original;
      return seen;
    },
  };
}

/** Every SQL statement the database runs while `fn` runs: at better-sqlite3, or at node-postgres. */
export async function countStatements<T>(
  tdb: TestDb,
  fn: () => Promise<T>,
): Promise<{ value: T; statements: string[] }> {
  const counter = tdb.kind === 'sqlite' ? countSqliteStatements(sqliteDatabaseOf(tdb.db)!) : countPgQueries();
  try {
    const value = await fn();
    return { value, statements: counter.stop() };
  } catch (err) {
    counter.stop();
    throw err;
  }
}
