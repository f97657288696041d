import { createHash, randomBytes } from 'node:crypto';
import type { Db, DbKind } from '../../db/db';
import { parseJson } from '../../db/schema';
import { writeTx } from '../../db/tx';
import type { Scope } from './principal';

/**
 * LRS clients (decision 0040): Basic credentials a tenant administrator gives another tool
 * (an authoring tool's LRS test, a reporting tool, ADL's conformance suite), with xAPI scopes.
 * The secret is shown once, at creation; only its SHA-256 is kept. Revoking keeps the row
 * (who wrote what stays known) and ends the credentials at once.
 */
export interface ClientView {
  key: string;
  name: string;
  scopes: Scope[];
  createdAt: string;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export async function createClient(
  db: Db,
  kind: DbKind,
  contextId: string,
  by: string,
  input: { name: string; scopes: Scope[] },
  now: Date,
): Promise<ClientView & { secret: string }> {
  const key = randomBytes(16).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const scopes = [...new Set(input.scopes)];
  const createdAt = now.toISOString();
  await writeTx(db, kind, (trx) =>
    trx
      .insertInto('xapiClients')
      .values({
        key,
        contextId,
        name: input.name,
        scopes: JSON.stringify(scopes),
        secretHash: sha256(secret),
        createdBy: by,
        createdAt,
        revokedAt: null,
      })
      .execute(),
  );
  return { key, secret, name: input.name, scopes, createdAt };
}

export async function listClients(db: Db, contextId: string): Promise<ClientView[]> {
  const rows = await db
    .selectFrom('xapiClients')
    .select(['key', 'name', 'scopes', 'createdAt'])
    .where('contextId', '=', contextId)
    .where('revokedAt', 'is', null)
    .orderBy('createdAt')
    .orderBy('key')
    .execute();
  return rows.map((r) => ({ ...r, scopes: parseJson<Scope[]>(r.scopes, []) }));
}

/** True when a live client of the tenant was revoked. */
export async function revokeClient(db: Db, kind: DbKind, contextId: string, key: string, now: Date) {
  const res = await writeTx(db, kind, (trx) =>
    trx
      .updateTable('xapiClients')
      .set({ revokedAt: now.toISOString() })
      .where('contextId', '=', contextId)
      .where('key', '=', key)
      .where('revokedAt', 'is', null)
      .executeTakeFirst(),
  );
  return Number(res.numUpdatedRows) === 1;
}
