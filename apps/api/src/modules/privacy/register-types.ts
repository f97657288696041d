import type { Db, DbKind } from '../../db/db';
import type { Learner } from './learner';

/** The shape of the register's entries (register.ts, decision 0056) and what they share. */
export interface ExportRun {
  db: Db;
  kind: DbKind;
  who: Learner;
  now: Date;
}
export interface EraseRun {
  iso: string;
  /** Her statements (found before anything is deleted): by user, actor, or any agent they name. */
  statementIds: string[];
  /** The attachment parts her statements refer to. */
  sha2s: string[];
  /** Stored files whose bytes go after the commit. */
  paths: string[];
}

export interface RegisterEntry {
  table: string;
  /** The columns that name her, or lead to her (snake case, as in the schema). */
  columns: string[];
  /** How her rows are found. */
  find: string;
  export: { section: string; rows(x: ExportRun): Promise<unknown[]> } | { leftOut: string };
  erase:
    | { action: 'delete' | 'anonymise'; run(trx: Db, who: Learner, run: EraseRun): Promise<void> }
    | { action: 'keep'; reason: string };
}

export const inTenant = (x: ExportRun) => x.who.contextId;
export const nonEmpty = <T>(list: T[], fallback: T) => (list.length ? list : [fallback]);

/** Tenant tables whose rows are hers when one column holds one of her values. */
type Keyed =
  | 'certificates'
  | 'records'
  | 'reviews'
  | 'packageRuntime'
  | 'packageLaunches'
  | 'xapiCredentials'
  | 'xapiDocuments'
  | 'quotaUsage';

export const rowsWhere =
  (table: Keyed, column: string, valuesOf: (who: Learner) => string[]) => (x: ExportRun) =>
    x.db
      .selectFrom(table)
      .selectAll()
      .where('contextId', '=', inTenant(x))
      .where(x.db.dynamic.ref(column), 'in', valuesOf(x.who))
      .execute();

export const deleteWhere =
  (table: Keyed, column: string, valuesOf: (who: Learner) => string[]) => async (trx: Db, who: Learner) => {
    await trx
      .deleteFrom(table)
      .where('contextId', '=', who.contextId)
      .where(trx.dynamic.ref(column), 'in', valuesOf(who))
      .execute();
  };

const herId = (who: Learner) => [who.userId];
export const rowsOfUser = (table: Keyed) => rowsWhere(table, 'userId', herId);
export const deleteByUser = (table: Keyed) => deleteWhere(table, 'userId', herId);

export const FIGURES = 'a figure of the class and the tenant, kept under the anonymous account';
