import { randomBytes } from 'node:crypto';
import type { Db } from './db';

/**
 * A random secret of this installation (migration 0009), created on first use if the row is
 * missing. Shared by every API process through the database.
 */
export async function installationSecret(db: Db, name: string): Promise<string> {
  const row = await db
    .selectFrom('installationSecrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  if (row) return row.value;
  await db
    .insertInto('installationSecrets')
    .values({ name, value: randomBytes(32).toString('base64url'), createdAt: new Date().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await db
    .selectFrom('installationSecrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return stored.value;
}
