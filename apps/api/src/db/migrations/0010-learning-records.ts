import type { Kysely } from 'kysely';

/**
 * The built-in learning record store (issue 14, decision 0017).
 * - `xapi_statements`: every statement as stored (`body`, the xAPI JSON with `stored` and
 *   `authority`), per tenant, with the columns the statements resource filters and pages on.
 *   `voided` is set on a target when its voiding statement is stored (the voiding one stays
 *   queryable). Statements are ordered by (`stored`, `id`).
 * - `xapi_credentials`: HTTP Basic credentials issued to one learner for one module launch;
 *   the secret is kept as its SHA-256 only (256 random bits need no slow hash).
 * - `xapi_outbox`: statements waiting for the tenant's external LRS (`hosts.lrs`), retried with
 *   exponential backoff until delivered.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('xapi_statements')
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('actor_key', 'text', (c) => c.notNull())
    .addColumn('verb_id', 'text', (c) => c.notNull())
    .addColumn('activity_id', 'text')
    .addColumn('ref_id', 'text')
    .addColumn('registration', 'text')
    .addColumn('voiding', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('voided', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stored', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('xapi_statements_pk', ['context_id', 'id'])
    .execute();
  await db.schema
    .createIndex('xapi_statements_stored_ix')
    .on('xapi_statements')
    .columns(['context_id', 'stored', 'id'])
    .execute();
  await db.schema
    .createIndex('xapi_statements_actor_ix')
    .on('xapi_statements')
    .columns(['context_id', 'actor_key', 'stored'])
    .execute();
  // A target stored after its voiding statement is born voided: voiding statements by target.
  await db.schema
    .createIndex('xapi_statements_ref_ix')
    .on('xapi_statements')
    .columns(['context_id', 'ref_id'])
    .execute();
  await db.schema
    .createTable('xapi_credentials')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('lesson_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('registration', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('xapi_outbox')
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('statement_id', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('xapi_outbox_pk', ['context_id', 'statement_id'])
    .execute();
  await db.schema
    .createIndex('xapi_outbox_due_ix')
    .on('xapi_outbox')
    .columns(['delivered_at', 'next_attempt_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('xapi_outbox').execute();
  await db.schema.dropTable('xapi_credentials').execute();
  await db.schema.dropTable('xapi_statements').execute();
}
