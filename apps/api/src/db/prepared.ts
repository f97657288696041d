import type SQLite from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import type { Compilable, Kysely } from 'kysely';
import type { Database } from './schema';
import { refuseWriteInScope } from './read-only';

/**
 * Prepared queries for the hot paths (authentication, the lesson player): written with Kysely
 * like every other query, but built and compiled once per dialect instead of on every call
 * (building and compiling was the largest single cost of a player request — decision 0007).
 *
 * `prepared((db, a: string, b: number) => db.selectFrom(...).where('x', '=', a)...)` calls the
 * builder once with placeholder values, records which bound parameter is which argument, and
 * afterwards only substitutes the arguments. The builder must therefore only pass its arguments
 * into the query as values (no branching or arithmetic on them).
 *
 * On SQLite, the compiled SQL runs straight on better-sqlite3 when that is safe: inside a write
 * transaction of `writeTx` (it holds the connection), or on the root handle while no
 * transaction is open on the connection (a synchronous statement cannot interleave with
 * anything then). Otherwise — an open transaction of another request, or PostgreSQL — it goes
 * through Kysely's executor, which waits for the connection.
 */

type Db = Kysely<Database>;

/** Handles that may run raw statements on this SQLite database, and when. */
const sqliteOf = new WeakMap<Db, { database: SQLite.Database; owned: boolean }>();

/** The root handle of an SQLite database (openDb): raw statements only while no transaction is open. */
export function registerSqliteRoot(db: Db, database: SQLite.Database): void {
  sqliteOf.set(db, { database, owned: false });
}

/** A handle bound to the connection held by a write transaction: raw statements always. */
export function registerSqliteConnection(conn: Db, database: SQLite.Database): void {
  sqliteOf.set(conn, { database, owned: true });
}

/** The raw SQLite database behind a root handle, for the write batcher. */
export function sqliteDatabaseOf(db: Db): SQLite.Database | undefined {
  return sqliteOf.get(db)?.database;
}

/**
 * Time spent inside SQLite by raw statements, when switched on (bench/player-load.ts reports it
 * to show how much of an answer is the database's own work). Off, it costs one branch per call.
 */
export const sqliteClock = { enabled: false, ns: 0n, statements: 0 };

/** Runs `fn` (a raw better-sqlite3 call) under the clock when it is on. */
export function timed<T>(fn: () => T): T {
  if (!sqliteClock.enabled) return fn();
  const t0 = process.hrtime.bigint();
  try {
    return fn();
  } finally {
    sqliteClock.ns += process.hrtime.bigint() - t0;
    sqliteClock.statements++;
  }
}

const ARG = '\u0000parcours-arg:';

interface Template {
  sql: string;
  /** For each bound parameter: the argument index, or -1 for a constant. */
  args: number[];
  constants: unknown[];
  query: CompiledQuery['query'];
}

interface Raw {
  statement: SQLite.Statement;
  /** For each `?` left in the raw SQL: the index of the template's parameter it binds. */
  params: number[];
  /** camelCase result keys, in column order (the CamelCasePlugin's mapping). */
  keys: string[] | null;
}

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export interface Prepared<A extends unknown[], R> {
  all(db: Db, ...args: A): Promise<R[]>;
  first(db: Db, ...args: A): Promise<R | undefined>;
  /** Number of rows changed (UPDATE/INSERT/DELETE). */
  run(db: Db, ...args: A): Promise<number>;
}

export function prepared<A extends unknown[], R>(
  build: (db: Db, ...args: A) => Compilable<R>,
): Prepared<A, R> {
  // One template per dialect (the SQL differs), found by the adapter of the handle.
  const templates = new Map<unknown, Template>();
  const raws = new WeakMap<SQLite.Database, Raw>();

  const templateOf = (db: Db): Template => {
    const adapter = db.getExecutor().adapter.constructor;
    let t = templates.get(adapter);
    if (!t) {
      const placeholders = Array.from({ length: build.length - 1 }, (_, i) => `${ARG}${i}`) as unknown as A;
      const compiled = build(db, ...placeholders).compile();
      const args: number[] = [];
      const constants: unknown[] = [];
      compiled.parameters.forEach((p, i) => {
        const arg = typeof p === 'string' && p.startsWith(ARG) ? Number(p.slice(ARG.length)) : -1;
        args[i] = arg;
        constants[i] = arg === -1 ? p : undefined;
      });
      for (let i = 0; i < placeholders.length; i++) {
        if (!args.includes(i))
          throw new Error(`prepared query: argument ${i} is not a bound value of\n${compiled.sql}`);
      }
      t = { sql: compiled.sql, args, constants, query: compiled.query };
      templates.set(adapter, t);
    }
    return t;
  };

  const paramsOf = (t: Template, args: unknown[]): unknown[] =>
    t.args.map((a, i) => (a === -1 ? t.constants[i] : args[a]));

  const rawOf = (db: Db): Raw | null => {
    const sqlite = sqliteOf.get(db);
    if (!sqlite || (!sqlite.owned && sqlite.database.inTransaction)) return null;
    let raw = raws.get(sqlite.database);
    if (!raw) {
      const { sql, params } = withLiterals(templateOf(db));
      const statement = sqlite.database.prepare(sql);
      raw = {
        statement,
        params,
        keys: statement.reader ? statement.columns().map((c) => camel(c.name)) : null,
      };
      if (statement.reader) statement.raw(true);
      raws.set(sqlite.database, raw);
    }
    // Straight to SQLite, past Kysely: the read-only scope's check is made here (db/read-only.ts).
    refuseWriteInScope(raw.statement);
    return raw;
  };

  const rawParams = (t: Template, raw: Raw, args: unknown[]): unknown[] =>
    raw.params.map((i) => (t.args[i] === -1 ? t.constants[i] : args[t.args[i]!]));

  const toRow = (keys: string[], values: unknown[]): R => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) row[keys[i]!] = values[i];
    return row as R;
  };

  const viaKysely = async (db: Db, args: unknown[]) => {
    const t = templateOf(db);
    return db.executeQuery<R>(CompiledQuery.raw(t.sql, paramsOf(t, args)));
  };

  return {
    async all(db, ...args) {
      const raw = rawOf(db);
      if (raw?.keys) {
        const keys = raw.keys;
        const params = rawParams(templateOf(db), raw, args);
        return (timed(() => raw.statement.all(params)) as unknown[][]).map((v) => toRow(keys, v));
      }
      return (await viaKysely(db, args)).rows;
    },
    async first(db, ...args) {
      const raw = rawOf(db);
      if (raw?.keys) {
        const params = rawParams(templateOf(db), raw, args);
        const values = timed(() => raw.statement.get(params)) as unknown[] | undefined;
        return values ? toRow(raw.keys, values) : undefined;
      }
      return (await viaKysely(db, args)).rows[0];
    },
    async run(db, ...args) {
      const raw = rawOf(db);
      if (raw && !raw.keys) {
        const params = rawParams(templateOf(db), raw, args);
        return timed(() => raw.statement.run(params)).changes;
      }
      return Number((await viaKysely(db, args)).numAffectedRows ?? 0);
    },
  };
}

/**
 * Every statement better-sqlite3 runs on `database` from now until `stop()`, whoever runs it
 * (Kysely, prepared queries, the write batcher's BEGIN/COMMIT), as their SQL texts. For the
 * statement-count test and the bench (decision 0016), not for production: it wraps the methods of
 * better-sqlite3's Statement class, shared by the process, until stopped. A trigger's body runs
 * inside the statement that fires it and is not counted apart.
 */
export function countSqliteStatements(database: SQLite.Database): { stop(): string[] } {
  const seen: string[] = [];
  type Method = (this: SQLite.Statement, ...args: unknown[]) => unknown;
  const proto = Object.getPrototypeOf(database.prepare('select 1')) as Record<string, Method>;
  const originals = (['run', 'get', 'all', 'iterate'] as const).map((m) => [m, proto[m]!] as const);
  for (const [m, orig] of originals) {
    proto[m] = function (this: SQLite.Statement, ...args: unknown[]) {
      if (this.database === database) seen.push(this.source);
      return orig.apply(this, args);
    };
  }
  const exec = Object.getOwnPropertyDescriptor(database, 'exec');
  const originalExec = database.exec;
  database.exec = (source: string) => {
    seen.push(source);
    return originalExec.call(database, source);
  };
  return {
    stop() {
      for (const [m, orig] of originals) proto[m] = orig;
      if (exec) Object.defineProperty(database, 'exec', exec);
      else delete (database as { exec?: unknown }).exec;
      return seen;
    },
  };
}

/**
 * The template's SQL for better-sqlite3 with its constant strings written as SQL literals
 * (`state <> 'ARCHIVED'`, not `state <> ?`). SQLite re-prepares a statement on every run when a
 * bound value could change its plan — as one compared with a partial index's condition can
 * (lesson_pages has three): the player's one-statement read cost four times the CPU with its
 * constants bound (decision 0016). Only strings and null are inlined (a string is escaped by
 * doubling its quotes); numbers and the arguments stay bound. Quoted text in the SQL is skipped.
 */
export function withLiterals(t: Pick<Template, 'sql' | 'args' | 'constants'>): {
  sql: string;
  params: number[];
} {
  let sql = '';
  const params: number[] = [];
  let quote: string | null = null;
  let n = 0;
  for (const ch of t.sql) {
    if (quote) {
      if (ch === quote) quote = null;
      sql += ch;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
      sql += ch;
    } else if (ch === '?') {
      const i = n++;
      const value = t.constants[i];
      if (t.args[i] === -1 && typeof value === 'string') sql += `'${value.replaceAll("'", "''")}'`;
      else if (t.args[i] === -1 && value === null) sql += 'null';
      else {
        sql += '?';
        params.push(i);
      }
    } else sql += ch;
  }
  return { sql, params };
}
