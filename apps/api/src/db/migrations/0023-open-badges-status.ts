import type { Kysely } from 'kysely';

/**
 * Open Badges 3.0 that verifiers accept (issue 28, decision 0041).
 * - `certificates.credential_jwt`: the credential as signed once, re-served on every download
 *   (one signed credential per achievement, never re-signed under the same `jti`).
 * - `certificates.status_index`: its entry in the tenant's W3C Bitstring Status List
 *   (revocation), given when the credential is first signed; unique per tenant.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('certificates').addColumn('credential_jwt', 'text').execute();
  await db.schema.alterTable('certificates').addColumn('status_index', 'integer').execute();
  await db.schema
    .createIndex('certificates_status_index_uq')
    .on('certificates')
    .columns(['context_id', 'status_index'])
    .unique()
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('certificates_status_index_uq').execute();
  await db.schema.alterTable('certificates').dropColumn('status_index').execute();
  await db.schema.alterTable('certificates').dropColumn('credential_jwt').execute();
}
