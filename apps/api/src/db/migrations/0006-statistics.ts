import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * Learner statistics (issue 9). The statistics call sums one learner's answered pages between two
 * instants: it reaches the learner's lessons by `lessons_user_idx`, then each lesson's answered
 * pages in the date range by this index, which also holds every column the sums read (covering:
 * no table row is visited). Partial on answered pages only, so unanswered and freshly opened pages
 * cost nothing in it. Works the same on SQLite and PostgreSQL.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index lesson_pages_answered_idx on lesson_pages (lesson_id, answered_at, state, progress, time_spent, score_actual, score_max) where answered_at is not null`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('lesson_pages_answered_idx').execute();
}
