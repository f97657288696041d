import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * Certificates (issue 9).
 * - `signing_keys`: one Ed25519 key pair per tenant, made on first use. The public JWK is
 *   published (JWKS); the private JWK is stored encrypted with a key derived from the server's
 *   secret, so a copy of the database alone cannot sign. Retired keys stay published so
 *   credentials signed with them still verify. At most one active key per tenant (partial
 *   unique index): two processes signing the tenant's first credential at once cannot both
 *   create one.
 * - `certificates`: one row per delivered document, with an unguessable random id used by the
 *   public verification URL (never the lesson id) and a snapshot of what the document shows,
 *   so the page tells exactly what was printed. `issued_for` is the lesson's end instant: a
 *   lesson reset and ended again gets a new certificate, and the old one reads as revoked.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signing_keys')
    .addColumn('id', 'text', (c) => c.primaryKey()) // the JWK kid
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_jwk', 'text', (c) => c.notNull()) // AES-256-GCM sealed JSON
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('retired_at', 'text')
    .execute();
  await sql`create unique index signing_keys_active_uq on signing_keys (context_id) where retired_at is null`.execute(
    db,
  );

  await db.schema
    .createTable('certificates')
    .addColumn('id', 'text', (c) => c.primaryKey()) // random, 128 bits, base64url
    .addColumn('context_id', 'text', (c) => c.notNull().references('contexts.id').onDelete('cascade'))
    .addColumn('lesson_id', 'text', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('issued_for', 'text', (c) => c.notNull())
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('certificates_lesson_uq')
    .on('certificates')
    .columns(['lesson_id', 'issued_for'])
    .unique()
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('certificates').execute();
  await db.schema.dropTable('signing_keys').execute();
}
