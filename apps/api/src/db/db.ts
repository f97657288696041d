import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CamelCasePlugin,
  Kysely,
  Migrator,
  PostgresDialect,
  PostgresDriver,
  SqliteDialect,
  sql,
} from 'kysely';
import type { DatabaseConnection, Driver, Migration, MigrationProvider, TransactionSettings } from 'kysely';
import pg from 'pg';
import * as m0001 from './migrations/0001-initial';
import * as m0002 from './migrations/0002-user-email-ci';
import * as m0003 from './migrations/0003-player-clock';
import * as m0004 from './migrations/0004-certificates';
import * as m0006 from './migrations/0006-statistics';
import * as m0008 from './migrations/0008-honest-scores';
import * as m0009 from './migrations/0009-file-secrets';
import * as m0010 from './migrations/0010-learning-records';
import * as m0011 from './migrations/0011-time-accommodation';
import * as m0013 from './migrations/0013-page-answered-trigger';
import * as m0014 from './migrations/0014-home-versions';
import * as m0015 from './migrations/0015-growth-indexes';
import * as m0016 from './migrations/0016-content-stamp-blocks';
import * as m0017 from './migrations/0017-answer-one-statement-pg';
import * as m0020 from './migrations/0020-statements-by-learner';
import * as m0021 from './migrations/0021-quota-usage';
import * as m0022 from './migrations/0022-lrs';
import * as m0023 from './migrations/0023-open-badges-status';
import * as m0024 from './migrations/0024-packages';
import * as m0026 from './migrations/0026-ended-sessions';
import * as m0027 from './migrations/0027-data-integrity-credentials';
import * as m0028 from './migrations/0028-viewer-notify';
import * as m0029 from './migrations/0029-cmi5-sessions';
import * as m0032 from './migrations/0032-me-stamps';
import * as m0033 from './migrations/0033-player-stamps';
import * as m0034 from './migrations/0034-cmi5-status-stamps';
import { startCheckpointer } from './checkpointer';
import { registerSqliteRoot } from './prepared';
import { readOnlyScope, refuseWriteInScope, refuseWriteTx } from './read-only';
import type { Database } from './schema';

export type Db = Kysely<Database>;
export type DbKind = 'sqlite' | 'postgres';

export interface DbOptions {
  /** postgres://... for PostgreSQL; otherwise SQLite at `sqliteFile` (':memory:' allowed). */
  databaseUrl?: string | undefined;
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests give each run its own, so suites never share rows). */
  pgSchema?: string;
  poolSize?: number;
  /**
   * SQLite file: checkpoint the WAL in a worker thread instead of inside a COMMIT on this thread
   * (db/checkpointer.ts; the server turns it on).
   */
  checkpointInBackground?: boolean;
}

export interface DbHandle {
  db: Db;
  kind: DbKind;
  close(): Promise<void>;
  /** PostgreSQL's connection pool (metrics read its use); none on SQLite. */
  pool?: pg.Pool;
}

// Static list rather than a folder scan: works the same under tsx, vitest and a bundler.
const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-user-email-ci': m0002,
  '0003-player-clock': m0003,
  '0004-certificates': m0004,
  '0006-statistics': m0006,
  '0008-honest-scores': m0008,
  '0009-file-secrets': m0009,
  '0010-learning-records': m0010,
  '0011-time-accommodation': m0011,
  '0013-page-answered-trigger': m0013,
  '0014-home-versions': m0014,
  '0015-growth-indexes': m0015,
  '0016-content-stamp-blocks': m0016,
  '0017-answer-one-statement-pg': m0017,
  '0020-statements-by-learner': m0020,
  '0021-quota-usage': m0021,
  '0022-lrs': m0022,
  '0023-open-badges-status': m0023,
  '0024-packages': m0024,
  '0026-ended-sessions': m0026,
  '0027-data-integrity-credentials': m0027,
  '0028-viewer-notify': m0028,
  '0029-cmi5-sessions': m0029,
  '0032-me-stamps': m0032,
  '0033-player-stamps': m0033,
  '0034-cmi5-status-stamps': m0034,
};
/** Every migration this code knows: readiness checks they are all applied (plugins/health.ts). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);
const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The pool behind a PostgreSQL handle of `openDb`: the viewer copy opens its listener like it. */
const pools = new WeakMap<Db, pg.Pool>();
export function pgPoolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

export function openDb(opts: DbOptions): DbHandle {
  const plugins = [new CamelCasePlugin()];
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const max = opts.poolSize ?? 10;
    const searchPath = opts.pgSchema ? `-c search_path=${opts.pgSchema}` : '';
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max,
      ...(searchPath ? { options: searchPath } : {}),
    });
    // The read-only scope's connections (db/read-only.ts): PostgreSQL itself refuses their writes.
    // A few: only drawn pages use them, and an idle one closes after pg's 10 s.
    const readOnlyPool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: Math.max(2, Math.ceil(max / 4)),
      options: `${searchPath} -c default_transaction_read_only=on`.trim(),
    });
    const db = new Kysely<Database>({ dialect: new ScopedPostgresDialect(pool, readOnlyPool), plugins });
    pools.set(db, pool);
    return { db, kind: 'postgres', close: () => db.destroy(), pool };
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  // WAL lets readers run while a writer commits; foreign keys are off by default in SQLite.
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  // SQLite's default page cache is 2 MB: past about 100 000 learners (a million lesson pages) the
  // hot index pages of a dashboard read no longer fit, and latency grew with the file. 64 MB of
  // cache per connection and the file mapped in memory keep them resident (issue 9 growth bench).
  database.pragma('cache_size = -65536');
  database.pragma('mmap_size = 268435456');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withReadOnlyGuard(withStatementCache(database)) }),
    plugins,
  });
  registerSqliteRoot(db, database);
  const checkpointer =
    opts.checkpointInBackground && file !== ':memory:' ? startCheckpointer(database, file) : undefined;
  return {
    db,
    kind: 'sqlite',
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * `pgSchema`: the PostgreSQL schema being migrated. Kysely looks for its bookkeeping tables in
 * every schema unless told which one, so a second schema in the same database (tests, several
 * demos) would otherwise find another schema's tables and fail.
 */
/**
 * Kysely prepares every statement anew on each query; with better-sqlite3 that compile step is a
 * large share of a small query's cost. The SQL text of a Kysely query is stable (values are bound
 * parameters), so prepared statements are kept per SQL text, in a bounded LRU map.
 */
function withStatementCache(database: SQLite.Database, max = 500): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = (source: string): SQLite.Statement => {
    const hit = cache.get(source);
    if (hit) {
      // Re-insert to mark as recently used.
      cache.delete(source);
      cache.set(source, hit);
      return hit;
    }
    const statement = database.prepare(source);
    cache.set(source, statement);
    if (cache.size > max) cache.delete(cache.keys().next().value as string);
    return statement;
  };
  return new Proxy(database, {
    get(target, prop, receiver) {
      if (prop === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * PostgreSQL through two pools: the read-only scope's queries (db/read-only.ts) take a connection
 * of `readOnly`, whose sessions default to read-only transactions; every other query one of `pool`.
 * Chosen when a connection is acquired, so a transaction stays on the connection it began on.
 */
class ScopedPostgresDialect extends PostgresDialect {
  constructor(
    private readonly readWrite: pg.Pool,
    private readonly readOnly: pg.Pool,
  ) {
    super({ pool: readWrite });
  }

  override createDriver(): Driver {
    return new ScopedDriver(
      new PostgresDriver({ pool: this.readWrite }),
      new PostgresDriver({ pool: this.readOnly }),
    );
  }
}

class ScopedDriver implements Driver {
  private readonly owner = new WeakMap<DatabaseConnection, Driver>();

  constructor(
    private readonly readWrite: Driver,
    private readonly readOnly: Driver,
  ) {}

  async init(): Promise<void> {
    await Promise.all([this.readWrite.init(), this.readOnly.init()]);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const driver = readOnlyScope() === undefined ? this.readWrite : this.readOnly;
    const connection = await driver.acquireConnection();
    this.owner.set(connection, driver);
    return connection;
  }

  private driverOf(connection: DatabaseConnection): Driver {
    return this.owner.get(connection) ?? this.readWrite;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.driverOf(connection).beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driverOf(connection).commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driverOf(connection).rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.driverOf(connection).releaseConnection(connection);
  }

  async destroy(): Promise<void> {
    await Promise.all([this.readWrite.destroy(), this.readOnly.destroy()]);
  }
}

/**
 * SQLite's one connection, refusing in a read-only scope (db/read-only.ts) any statement SQLite
 * says writes: checked as Kysely prepares it, right before running it, and for `exec`.
 */
function withReadOnlyGuard(database: SQLite.Database): SQLite.Database {
  return new Proxy(database, {
    get(target, prop, receiver) {
      if (prop === 'prepare')
        return (source: string) => {
          const statement = target.prepare(source);
          refuseWriteInScope(statement);
          return statement;
        };
      if (prop === 'exec')
        return (source: string) => {
          refuseWriteTx();
          return target.exec(source);
        };
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export async function migrateToLatest(db: Db, opts: { pgSchema?: string | undefined } = {}): Promise<void> {
  const migrator = new Migrator({
    db,
    provider,
    ...(opts.pgSchema ? { migrationTableSchema: opts.pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** Creates a PostgreSQL schema if missing (used by tests and by `PG_SCHEMA`). */
export async function ensurePgSchema(databaseUrl: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } catch (err) {
    // IF NOT EXISTS is not atomic: processes started together (three-processes.test.ts saw it)
    // can both find the schema missing; the loser's insert into pg_namespace is refused as a
    // duplicate, and the schema is then there, which is all this asks.
    if ((err as { code?: unknown }).code !== '23505') throw err;
  } finally {
    await client.end();
  }
}

export async function dropPgSchema(databaseUrl: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

export { sql };
