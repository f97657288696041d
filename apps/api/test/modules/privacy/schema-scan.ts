import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
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

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A value and, when it reads as base64 (documents, attachment parts), its decoded text too. */
function readable(value: string): string {
  if (value.length >= 8 && value.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(value))
    return `${value}\n${Buffer.from(value, 'base64').toString('utf8')}`;
  return value;
}

/**
 * Every `table.column` of the live schema where a needle appears (any case, base64 read
 * decoded: `named`), and where `id` appears outside the `idKept` columns (`byId`).
 */
export async function placesNaming(
  tdb: TestDb,
  who: { needles: string[]; id: string; idKept: ReadonlySet<string> },
): Promise<{ named: string[]; byId: string[] }> {
  const needles = who.needles.map((n) => n.toLowerCase());
  const named = new Set<string>();
  const byId = new Set<string>();
  for (const { table, columns } of await liveTables(tdb)) {
    const rows = (await tdb.db
      .selectFrom(table as 'users')
      .selectAll()
      .execute()) as unknown as Record<string, unknown>[];
    for (const row of rows)
      for (const column of columns) {
        const value = row[camel(column)];
        if (value === null || value === undefined) continue;
        const text = readable(String(value)).toLowerCase();
        const place = `${table}.${column}`;
        if (needles.some((n) => text.includes(n))) named.add(place);
        if (text.includes(who.id.toLowerCase()) && !who.idKept.has(place)) byId.add(place);
      }
  }
  return { named: [...named].sort(), byId: [...byId].sort() };
}

/** The files of `dir` (none if it does not exist) whose text holds `needle`, any case. */
export function filesNaming(dir: string, needle: string): string[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files.filter((f) =>
    readFileSync(path.join(dir, f), 'utf8').toLowerCase().includes(needle.toLowerCase()),
  );
}
