import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * Unguessable file ids (issue 10 finding 7). Content files keep ids stable across re-imports
 * (every reference in courses is rewritten from them), but they were derived from the public
 * tenant alias and the file's path alone, so anyone could compute them. The ids now also mix in
 * a random secret of this installation, created here once and never sent to anyone.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('installation_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db
    .insertInto('installation_secrets')
    .values({
      name: 'file-ids',
      value: randomBytes(32).toString('base64url'),
      created_at: new Date().toISOString(),
    })
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('installation_secrets').execute();
}
