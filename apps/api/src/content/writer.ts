import type { Kysely } from 'kysely';
import type { Db } from '../db/db';

export interface TableChanges {
  created: number;
  updated: number;
  unchanged: number;
  deleted?: number;
}

/** Tables whose rows carry created_at/updated_at, and those with created_at only. */
const BOTH = new Set([
  'contexts',
  'files',
  'users',
  'courses',
  'courseBlocks',
  'programs',
  'classes',
  'lessons',
  'lessonPages',
]);
const CREATED_ONLY = new Set(['libraries', 'companies', 'classUsers', 'invitationCodes']);

function same(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (v === undefined ? null : typeof v === 'bigint' ? Number(v) : v);
  return norm(a) === norm(b);
}

/**
 * Compare-then-write upserts, so a second import of unchanged files issues no UPDATE at all and
 * reports every row as unchanged. Timestamps are set on insert/update only and never compared.
 */
export class Writer {
  readonly changes: Record<string, TableChanges> = {};
  // Table names are dynamic here; every call site passes a literal table of the typed schema.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private readonly raw: Kysely<any>;

  constructor(
    db: Db,
    private readonly now: string,
  ) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    this.raw = db as unknown as Kysely<any>;
  }

  count(table: string, kind: keyof TableChanges, n = 1): void {
    const c = (this.changes[table] ??= { created: 0, updated: 0, unchanged: 0 });
    c[kind] = (c[kind] ?? 0) + n;
  }

  /** `label` reports the row under another name (demo history updates rows made elsewhere). */
  async upsert(
    table: string,
    key: Record<string, string>,
    row: Record<string, unknown>,
    label: string = table,
  ): Promise<'created' | 'updated' | 'unchanged'> {
    let q = this.raw.selectFrom(table).selectAll();
    for (const [k, v] of Object.entries(key)) q = q.where(k, '=', v);
    const existing = (await q.executeTakeFirst()) as Record<string, unknown> | undefined;
    if (!existing) {
      const values: Record<string, unknown> = { ...key, ...row };
      if (BOTH.has(table) || CREATED_ONLY.has(table)) values.createdAt = this.now;
      if (BOTH.has(table)) values.updatedAt = this.now;
      await this.raw.insertInto(table).values(values).execute();
      this.count(label, 'created');
      return 'created';
    }
    const diff: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) if (!same(existing[k], v)) diff[k] = v === undefined ? null : v;
    if (Object.keys(diff).length === 0) {
      this.count(label, 'unchanged');
      return 'unchanged';
    }
    if (BOTH.has(table)) diff.updatedAt = this.now;
    let u = this.raw.updateTable(table).set(diff);
    for (const [k, v] of Object.entries(key)) u = u.where(k, '=', v);
    await u.execute();
    this.count(label, 'updated');
    return 'updated';
  }

  /** Deletes rows of `table` where `column = value` whose `idColumn` is not in `keep`. */
  async prune(table: string, column: string, value: string, idColumn: string, keep: string[]): Promise<void> {
    let q = this.raw.deleteFrom(table).where(column, '=', value);
    if (keep.length) q = q.where(idColumn, 'not in', keep);
    const res = await q.executeTakeFirst();
    const n = Number(res.numDeletedRows ?? 0);
    if (n) this.count(table, 'deleted', n);
  }
}
