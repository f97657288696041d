import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * Growth to 100 000 learners (issue 11, decision 0022).
 * - Sign-in looks a learner up by `lower(email) = ? or username = ?` within the tenant. The only
 *   index on `lower(email)` was the partial unique one of 0002 (`where email <> ''`), which a
 *   planner may use only when the query implies its predicate; this one does not, so PostgreSQL
 *   read every user of the tenant (0.1–0.4 s at 100 000 learners). With a plain index on the same
 *   expression it combines both branches (BitmapOr) and reads one or two entries. (SQLite needs
 *   the two branches asked separately to use it: decision 0022.)
 * - A class's teachers (`role = 'TEACHER' and class_id in …`: the home's class tree, corrections,
 *   logbooks) were found through `class_users_uq (class_id, user_id, role)`, reading every member
 *   of the class — a company-wide class of 100 000 learners for two teachers. `(class_id, role,
 *   user_id)` reads the teachers only, without visiting the table.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index users_context_email_lower_idx on users (context_id, lower(email))`.execute(db);
  await db.schema
    .createIndex('class_users_class_role_idx')
    .on('class_users')
    .columns(['class_id', 'role', 'user_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('class_users_class_role_idx').execute();
  await db.schema.dropIndex('users_context_email_lower_idx').execute();
}
