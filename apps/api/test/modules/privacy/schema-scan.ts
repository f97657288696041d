import { sql } from 'kysely';
import type { TestDb } from '../../helpers/test-db';

/**
 * The tables of the live schema and their columns, as the database itself lists them (decision
 * 0056): sqlite_master and `pragma table_info` on SQLite, information_schema on PostgreSQL (the
 * test's own schema). Snake case, as created by the migrations. Kysely's migration bookkeeping
 * tables are left out: they name migrations, never a person.
 */
export async function liveTables(tdb: TestDb): Promise<{ table: string; columns: string[] }[]> {
  let pairs: { table: string; column: string }[];
  if (tdb.kind === 'sqlite') {
    const r = await sql<{ table: string; column: string }>`
      select m.name as "table", p.name as "column"
      from sqlite_master m, pragma_table_info(m.name) p
      where m.type = 'table' and m.name not like 'sqlite_%'
      order by m.name, p.cid`.execute(tdb.db);
    pairs = r.rows;
  } else {
    const r = await sql<{ table: string; column: string }>`
      select table_name as "table", column_name as "column"
      from information_schema.columns
      where table_schema = current_schema()
      order by table_name, ordinal_position`.execute(tdb.db);
    pairs = r.rows;
  }
  const tables = new Map<string, string[]>();
  for (const { table, column } of pairs) {
    if (table.startsWith('kysely_')) continue;
    tables.set(table, [...(tables.get(table) ?? []), column]);
  }
  return [...tables].map(([table, columns]) => ({ table, columns }));
}
