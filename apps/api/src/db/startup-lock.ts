import { sql } from 'kysely';
import type { DbHandle } from './db';

/**
 * Runs the start-up work (migrations, the first import) in one process at a time. Several API
 * processes started together on an empty PostgreSQL database would otherwise all see "no tenant"
 * and import the demo content at once, and all but one would die on a duplicate key (the
 * three-process test saw it). A session-level advisory lock is held on one connection of the pool
 * while `fn` runs on others; the next process then finds the work done. Keyed per schema
 * (PG_SCHEMA), so tests and demos sharing a server do not wait for each other. SQLite is one
 * process by design (docs/operations.md): nothing to take.
 */
export async function withStartupLock<T>(
  handle: Pick<DbHandle, 'db' | 'kind'>,
  schema: string | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  if (handle.kind !== 'postgres') return fn();
  const key = `parcours-startup:${schema ?? 'public'}`;
  return handle.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtextextended(${key}, 0))`.execute(conn);
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(conn);
    }
  });
}
