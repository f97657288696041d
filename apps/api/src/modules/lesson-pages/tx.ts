import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Db, DbKind } from '../../db/db';
import type { Database } from '../../db/schema';

export type Tx = Kysely<Database>;

/**
 * One transaction per write (ARCHITECTURE §4: never a partial write).
 * SQLite: `BEGIN IMMEDIATE` takes the write lock up front, so two server processes on one file
 * cannot both read a page as unanswered and then collide when upgrading to a writer; in one
 * process Kysely's single connection already serialises transactions.
 * PostgreSQL: READ COMMITTED; the guarantees come from conditional updates and unique indexes
 * (a second UPDATE of the same row waits for the first and re-checks its WHERE clause).
 */
export async function writeTx<T>(db: Db, kind: DbKind, fn: (trx: Tx) => Promise<T>): Promise<T> {
  if (kind === 'postgres') return db.transaction().execute(fn);
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw err;
    }
  });
}
