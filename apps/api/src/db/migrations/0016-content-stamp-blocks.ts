import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * The `content` stamp of migration 0014 (decision 0015) also moves with the player's content
 * (decision 0025): the blocks a page shows and grades by (`course_blocks`: content, settings,
 * solution), their terms (`course_terms`) and which terms a block has (`course_block_terms`).
 * The player's content cache (lesson-pages/content-cache.ts) is kept under that stamp instead of
 * a 30-second lifetime, so a re-import is served at once by every process. Same trigger bodies
 * as 0014: on PostgreSQL deferred constraint triggers calling `home_bump_content()`, so the
 * stamp's row is locked only while committing.
 */
const TABLES = ['course_blocks', 'course_terms', 'course_block_terms'];
const EVENTS = ['insert', 'update', 'delete'];

const triggers = () =>
  TABLES.flatMap((table) => EVENTS.map((event, i) => ({ name: `hv_${table}_content_${i}`, table, event })));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const t of triggers()) {
    const statement = pg
      ? `create constraint trigger ${t.name} after ${t.event} on ${t.table}
         deferrable initially deferred for each row execute function home_bump_content()`
      : `create trigger ${t.name} after ${t.event} on ${t.table} for each row begin
           insert into home_versions (key, version) select 'content', 1 where true
           on conflict (key) do update set version = version + 1; end`;
    await sql.raw(statement).execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const t of triggers())
    await sql.raw(pg ? `drop trigger ${t.name} on ${t.table}` : `drop trigger ${t.name}`).execute(db);
}
