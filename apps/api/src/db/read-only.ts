import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A read-only scope (issue 36 item 4, decision 0057): work run in it cannot write to the
 * database, whatever route or service it goes through. A page drawn for a document request runs
 * in one (plugins/web-app.ts), so a page load changes nothing: a link from any site can neither
 * create a lesson's first page nor start its clock.
 *
 * It is the database's own verdict, not a list of routes:
 * - PostgreSQL: the scope's queries run on connections opened with
 *   `default_transaction_read_only=on` (db.ts), on which the server refuses any INSERT, UPDATE,
 *   DELETE, DDL, sequence step or `SELECT … FOR UPDATE` (SQLSTATE 25006), triggers included.
 * - SQLite (one connection): every statement run in the scope is checked with better-sqlite3's
 *   `readonly` (SQLite's `sqlite3_stmt_readonly`) before it runs, on each road SQL takes to the
 *   connection: Kysely's (the connection's `prepare`, db.ts), the prepared queries' (prepared.ts)
 *   and the write batcher (`writeTx` refuses at once on both databases).
 */
const scope = new AsyncLocalStorage<string>();

/** Runs `fn` so that nothing it starts may write; `what` names the work in the refusal. */
export function readOnly<T>(what: string, fn: () => T): T {
  return scope.run(what, fn);
}

/** The work of the read-only scope this code runs in, if any. */
export function readOnlyScope(): string | undefined {
  return scope.getStore();
}

/** A write tried in a read-only scope. */
export class ReadOnlyRefusal extends Error {
  readonly code = 'READ_ONLY_SCOPE';
  constructor(what: string, statement: string) {
    super(`${what} may not write (${statement.slice(0, 80)})`);
    this.name = 'ReadOnlyRefusal';
  }
}

/** PostgreSQL's "cannot execute … in a read-only transaction". */
const PG_READ_ONLY = '25006';

/** Whether `error` is a write refused by a read-only scope, on either database. */
export function isReadOnlyRefusal(error: unknown): boolean {
  if (error instanceof ReadOnlyRefusal) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return code === PG_READ_ONLY && readOnlyScope() !== undefined;
}

/** Throws when a statement that writes (`readonly` false: SQLite's verdict) runs in a read-only scope. */
export function refuseWriteInScope(statement: { readonly: boolean; source: string }): void {
  if (statement.readonly) return;
  const what = scope.getStore();
  if (what !== undefined) throw new ReadOnlyRefusal(what, statement.source);
}

/** Throws when a write transaction is asked for in a read-only scope. */
export function refuseWriteTx(): void {
  const what = scope.getStore();
  if (what !== undefined) throw new ReadOnlyRefusal(what, 'write transaction');
}
