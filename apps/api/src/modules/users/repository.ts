import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { UsersTable } from '../../db/schema';

export type UserRow = Selectable<UsersTable>;

/** Sign-in identifier: an e-mail (any case) or a username, within one tenant. */
export async function findUsersForLogin(db: Db, contextId: string, identifier: string): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('contextId', '=', contextId)
    .where((eb) =>
      eb.or([eb(sql<string>`lower(email)`, '=', identifier.toLowerCase()), eb('username', '=', identifier)]),
    )
    .limit(2)
    .execute();
}

export async function findUserById(db: Db, contextId: string, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('contextId', '=', contextId).where('id', '=', id).executeTakeFirst();
}

/** System roles granted platform-wide (scope null) or for this tenant. */
export async function findSystemRoleNames(db: Db, contextId: string, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('roleUsers as ru')
    .innerJoin('roles as r', 'r.id', 'ru.roleId')
    .select('r.name')
    .where('ru.principalType', '=', 'USER')
    .where('ru.principalId', '=', userId)
    .where((eb) => eb.or([eb('ru.scopeId', 'is', null), eb('ru.scopeId', '=', contextId)]))
    .execute();
  return [...new Set(rows.map((r) => r.name))];
}

export async function findUserCompanies(
  db: Db,
  contextId: string,
  userId: string,
): Promise<{ id: string; name: string; role: string }[]> {
  return db
    .selectFrom('companyUsers as cu')
    .innerJoin('companies as c', 'c.id', 'cu.companyId')
    .select(['c.id', 'c.name', 'cu.role'])
    .where('cu.userId', '=', userId)
    .where('c.contextId', '=', contextId)
    .orderBy('c.name')
    .orderBy('cu.role')
    .execute();
}

/**
 * Counts one attempt for `key` in a fixed window and returns the count so far. One upsert
 * statement, so concurrent attempts from several API processes cannot lose increments.
 */
export async function countLoginAttempt(db: Db, key: string, now: Date, windowMs: number): Promise<number> {
  const nowIso = now.toISOString();
  const windowFloor = new Date(now.getTime() - windowMs).toISOString();
  const row = await db
    .insertInto('loginAttempts')
    .values({ key, count: 1, windowStart: nowIso })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when login_attempts.window_start <= ${windowFloor} then 1 else login_attempts.count + 1 end`,
        windowStart: sql<string>`case when login_attempts.window_start <= ${windowFloor} then ${nowIso} else login_attempts.window_start end`,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function clearLoginAttempts(db: Db, key: string): Promise<void> {
  await db.deleteFrom('loginAttempts').where('key', '=', key).execute();
}

/** Old windows are useless; removed now and then so the table stays small. */
export async function pruneLoginAttempts(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('loginAttempts').where('windowStart', '<', before.toISOString()).execute();
}
