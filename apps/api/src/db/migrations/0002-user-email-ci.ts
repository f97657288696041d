import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * E-mail uniqueness per tenant becomes case-insensitive (sign-in already matches e-mails in any
 * case, so "Anna@x" and "anna@x" must not be two accounts, even when registered concurrently),
 * and blank e-mails are left out of it: a learner registered with an invitation code may have
 * no e-mail yet (docs/product.md §5), stored as '' because the column stays NOT NULL.
 * Partial expression indexes work the same on SQLite and PostgreSQL.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_context_email_uq').execute();
  await sql`create unique index users_context_email_ci_uq on users (context_id, lower(email)) where email <> ''`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_context_email_ci_uq').execute();
  await db.schema
    .createIndex('users_context_email_uq')
    .on('users')
    .columns(['context_id', 'email'])
    .unique()
    .execute();
}
