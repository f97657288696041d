import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * Lesson player (issue 3).
 * - `lesson_pages.started_at`: when the learner confirmed a timed page (docs/product.md §2 timed-exercise
 *   confirmation); the server's time limit counts from it, never from a client clock.
 * - `lesson_pages.last_seen_at`: the last keep-alive (or the opening) of the page; each ping adds
 *   the server-measured time since then, so a client cannot claim more time than elapsed.
 * - One ACTIVE attempt per lesson and node: with (lesson_id, node_id, attempt) unique, two tabs
 *   can neither create nor retry the same page twice. Partial indexes work on SQLite and PostgreSQL.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('lesson_pages').addColumn('started_at', 'text').execute();
  await db.schema.alterTable('lesson_pages').addColumn('last_seen_at', 'text').execute();
  await sql`create unique index lesson_pages_active_uq on lesson_pages (lesson_id, node_id) where state <> 'ARCHIVED'`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('lesson_pages_active_uq').execute();
  await db.schema.alterTable('lesson_pages').dropColumn('last_seen_at').execute();
  await db.schema.alterTable('lesson_pages').dropColumn('started_at').execute();
}
