import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * Credentials a wallet accepts (issue 39, decision 0058).
 * - `signing_keys.purpose`: a tenant now holds one active key per purpose — `vc-jwt` (ES256,
 *   the VC-JWT form, as before) and `data-integrity` (Ed25519, the embedded `eddsa-rdfc-2022`
 *   proof that DCC's verifier and wallet read). The partial unique index moves from the tenant
 *   to (tenant, purpose), so two processes still cannot both make a tenant's key of one purpose.
 * - `certificates.credential_ld`: the credential with its embedded proof, signed once on the
 *   first download beside `credential_jwt` and re-served as is.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('signing_keys')
    .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('vc-jwt'))
    .execute();
  await sql`drop index signing_keys_active_uq`.execute(db);
  await sql`create unique index signing_keys_active_uq on signing_keys (context_id, purpose) where retired_at is null`.execute(
    db,
  );
  await db.schema.alterTable('certificates').addColumn('credential_ld', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('certificates').dropColumn('credential_ld').execute();
  await db.deleteFrom('signing_keys').where('purpose', '=', 'data-integrity').execute();
  await sql`drop index signing_keys_active_uq`.execute(db);
  await sql`create unique index signing_keys_active_uq on signing_keys (context_id) where retired_at is null`.execute(
    db,
  );
  await db.schema.alterTable('signing_keys').dropColumn('purpose').execute();
}
