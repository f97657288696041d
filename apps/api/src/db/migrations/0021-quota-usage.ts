import type { Kysely } from 'kysely';

/**
 * Issue 29 item 1: what each learner and each tenant has used of a quota (modules/quotas).
 * One row per (tenant, subject, kind, period): `subject` is a user id, `tenant` or `launch:<key>`;
 * `period` is the start of a rate's minute or day (ISO), or `total` for stored amounts. A request
 * adds to its rows with one conditional upsert each, so the database decides who passes the limit,
 * whichever process serves the request. Bytes need 64 bits (a tenant's day of uploads).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('quota_usage')
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('quota_usage_pk', ['context_id', 'subject', 'kind', 'period'])
    .execute();
  // The janitor removes rows whose window has passed.
  await db.schema.createIndex('quota_usage_updated_ix').on('quota_usage').column('updated_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('quota_usage').execute();
}
