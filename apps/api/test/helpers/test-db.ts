import { randomBytes } from 'node:crypto';
import { dropPgSchema, ensurePgSchema, migrateToLatest, openDb } from '../../src/db/db';
import type { Db, DbHandle, DbKind } from '../../src/db/db';

export interface TestDb {
  db: Db;
  kind: DbKind;
  close(): Promise<void>;
  /** PostgreSQL's pool (metrics tests read it). */
  pool?: DbHandle['pool'];
}

/**
 * A fresh migrated database per test file: SQLite in memory by default, or — when
 * DATABASE_URL is set — a PostgreSQL schema of its own, dropped on close.
 */
export async function createTestDb(): Promise<TestDb> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    await ensurePgSchema(url, schema);
    const handle = openDb({ databaseUrl: url, pgSchema: schema, poolSize: 4 });
    try {
      await migrateToLatest(handle.db, { pgSchema: schema });
    } catch (err) {
      // A failed setup must not leave its schema behind in the shared database.
      await handle.close();
      await dropPgSchema(url, schema);
      throw err;
    }
    return {
      db: handle.db,
      kind: 'postgres',
      pool: handle.pool,
      close: async () => {
        await handle.close();
        await dropPgSchema(url, schema);
      },
    };
  }
  const handle = openDb({ sqliteFile: ':memory:' });
  await migrateToLatest(handle.db);
  return { db: handle.db, kind: 'sqlite', close: () => handle.close() };
}
