import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * Growth to 100 000 learners (issue 11, decision 0022).
 * Sign-in looks a learner up by `lower(email) = ? or username = ?` within the tenant. The only
 * index on `lower(email)` is the partial unique one of 0002 (`where email <> ''`), which a
 * planner may use only when the query implies its predicate; this one does not, so both SQLite
 * and PostgreSQL read every user of the tenant (0.1–0.4 s at 100 000 learners). A plain index on
 * the same expression lets both combine it with `users_context_username_uq` (multi-index OR,
 * BitmapOr): a sign-in reads one or two index entries whatever the tenant's size.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index users_context_email_lower_idx on users (context_id, lower(email))`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_context_email_lower_idx').execute();
}
