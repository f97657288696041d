import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { ContextsTable } from '../../db/schema';

export type ContextRow = Selectable<ContextsTable>;

export async function findContextByHostname(db: Db, hostname: string): Promise<ContextRow | undefined> {
  return db
    .selectFrom('contextHostnames as h')
    .innerJoin('contexts as c', 'c.id', 'h.contextId')
    .selectAll('c')
    .where('h.hostname', '=', hostname)
    .executeTakeFirst();
}

export async function findGenericContext(db: Db): Promise<ContextRow | undefined> {
  // Several generic rows would be a content error; the oldest wins so the answer is stable.
  return db
    .selectFrom('contexts')
    .selectAll()
    .where('isGeneric', '=', 1)
    .orderBy('createdAt')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}
