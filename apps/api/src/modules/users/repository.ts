import { sql } from 'kysely';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/db';
import { prepared } from '../../db/prepared';
import { parseJson } from '../../db/schema';
import type { UsersTable } from '../../db/schema';
import { newId } from '../../lib/ids';

export type UserRow = Selectable<UsersTable>;

/** Sign-in identifier: an e-mail (any case) or a username, within one tenant. */
/**
 * The accounts an identifier may name: by e-mail (any case) or by username. Asked as two arms of
 * a UNION rather than one OR: SQLite (never ANALYZEd) does not split an OR over two indexes and
 * read the whole tenant (90 ms at 100 000 learners, decision 0022); each arm here uses its own
 * index on both databases. UNION, not UNION ALL: one account matching both ways is one candidate.
 */
export async function findUsersForLogin(db: Db, contextId: string, identifier: string): Promise<UserRow[]> {
  const byEmail = db
    .selectFrom('users')
    .selectAll()
    .where('contextId', '=', contextId)
    .where(sql<string>`lower(email)`, '=', identifier.toLowerCase());
  const byUsername = db
    .selectFrom('users')
    .selectAll()
    .where('contextId', '=', contextId)
    .where('username', '=', identifier);
  return byEmail.union(byUsername).limit(2).execute();
}

export async function findUserById(db: Db, contextId: string, id: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('contextId', '=', contextId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The signed-in user and the names of their system roles (granted platform-wide or for this
 * tenant), in one query: every authenticated request starts with it. One row per role, or one
 * row with a null role for the many users who have none; and the user's sessions ended by a
 * sign-out (decision 0057), one more row each: few, and gone when they could have lived no longer.
 * Kept per user, not per token, so the process's copy of the viewer (lib/viewer-copy.ts) answers
 * for every session of the user, and a sign-out moves the user's stamp (migration 0028).
 */
const viewerBase = (db: Db, contextId: string, id: string) =>
  db
    .selectFrom('users as u')
    .leftJoin('roleUsers as ru', (join) =>
      join
        .onRef('ru.principalId', '=', 'u.id')
        .on('ru.principalType', '=', 'USER')
        .on((eb) => eb.or([eb('ru.scopeId', 'is', null), eb('ru.scopeId', '=', contextId)])),
    )
    .leftJoin('roles as r', 'r.id', 'ru.roleId')
    .leftJoin('endedSessions as es', 'es.userId', 'u.id')
    .selectAll('u')
    .select(['r.name as roleName', 'es.id as endedSession'])
    .where('u.contextId', '=', contextId)
    .where('u.id', '=', id);

const viewerQuery = prepared(viewerBase);

/**
 * The same, with the two version stamps of the home's answer cache (migration 0014, decision
 * 0015) read in the same statement: a cached home answer then costs one statement, not two.
 * `userKey` is `u:{id}`; a stamp never written reads as null.
 */
const homeViewerQuery = prepared((db: Db, contextId: string, id: string, userKey: string) =>
  viewerBase(db, contextId, id).select((eb) => [
    eb.selectFrom('homeVersions').select('version').where('key', '=', userKey).as('userVersion'),
    eb.selectFrom('homeVersions').select('version').where('key', '=', 'content').as('contentVersion'),
  ]),
);

export interface ViewerRead {
  row: UserRow;
  roleNames: string[];
  /** The home's stamps, from `findHomeViewer` only. */
  versions?: { user: string; content: string };
  /** The user's sessions ended by a sign-out (decision 0057): their tokens are refused. */
  endedSessions: string[];
}

const NOT_USER_COLUMNS = new Set(['roleName', 'userVersion', 'contentVersion', 'endedSession']);

function viewerOf<T extends UserRow & { roleName: string | null; endedSession: string | null }>(
  rows: T[],
): ViewerRead | undefined {
  const first = rows[0];
  if (!first) return undefined;
  // Only the user's own columns go on (the stamps, if read, are returned apart). A plain loop:
  // a rest pattern leaving keys out was the largest cost of this function in profiles.
  const row: Record<string, unknown> = {};
  for (const key in first) if (!NOT_USER_COLUMNS.has(key)) row[key] = first[key];
  const roleNames = new Set<string>();
  const endedSessions = new Set<string>();
  for (const r of rows) {
    if (r.roleName !== null) roleNames.add(r.roleName);
    if (r.endedSession !== null && r.endedSession !== undefined) endedSessions.add(r.endedSession);
  }
  return { row: row as UserRow, roleNames: [...roleNames], endedSessions: [...endedSessions] };
}

export async function findViewer(db: Db, contextId: string, id: string): Promise<ViewerRead | undefined> {
  return viewerOf(await viewerQuery.all(db, contextId, id));
}

/** `findViewer` and the home's version stamps (as text, '0' when never written), one statement. */
export async function findHomeViewer(db: Db, contextId: string, id: string): Promise<ViewerRead | undefined> {
  const rows = await homeViewerQuery.all(db, contextId, id, `u:${id}`);
  const viewer = viewerOf(rows);
  if (!viewer) return undefined;
  const { userVersion, contentVersion } = rows[0]!;
  // bigint: a string on PostgreSQL, a number on SQLite; compared as text (lib/home-versions.ts).
  const versions = { user: String(userVersion ?? 0), content: String(contentVersion ?? 0) };
  return { ...viewer, versions };
}

const companiesQuery = prepared((db: Db, contextId: string, userId: string) =>
  db
    .selectFrom('companyUsers as cu')
    .innerJoin('companies as c', 'c.id', 'cu.companyId')
    .select(['c.id', 'c.name', 'cu.role'])
    .where('cu.userId', '=', userId)
    .where('c.contextId', '=', contextId)
    .orderBy('c.name')
    .orderBy('cu.role'),
);

export async function findUserCompanies(
  db: Db,
  contextId: string,
  userId: string,
): Promise<{ id: string; name: string; role: string }[]> {
  return companiesQuery.all(db, contextId, userId);
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

/** The count of `key` in its current window, without counting an attempt (0 once it ended). */
export async function readLoginAttempts(db: Db, key: string, now: Date, windowMs: number): Promise<number> {
  const row = await db
    .selectFrom('loginAttempts')
    .select(['count', 'windowStart'])
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row || row.windowStart <= new Date(now.getTime() - windowMs).toISOString()) return 0;
  return Number(row.count);
}

export async function clearLoginAttempts(db: Db, key: string): Promise<void> {
  await db.deleteFrom('loginAttempts').where('key', '=', key).execute();
}

/** Old windows are useless; removed now and then so the table stays small. */
export async function pruneLoginAttempts(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('loginAttempts').where('windowStart', '<', before.toISOString()).execute();
}

// ------------------------------------------------------------------ identity (issue 5)

/** A user by e-mail in any case; blank e-mails (invitation users without one) never match. */
export async function findUserByEmail(
  db: Db,
  contextId: string,
  email: string,
): Promise<UserRow | undefined> {
  const wanted = email.trim().toLowerCase();
  if (wanted === '') return undefined;
  return db
    .selectFrom('users')
    .selectAll()
    .where('contextId', '=', contextId)
    .where(sql<string>`lower(email)`, '=', wanted)
    .executeTakeFirst();
}

export async function findUserByUsername(
  db: Db,
  contextId: string,
  username: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('contextId', '=', contextId)
    .where('username', '=', username)
    .executeTakeFirst();
}

export async function findUserByOidcSubject(
  db: Db,
  contextId: string,
  subject: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('contextId', '=', contextId)
    .where('oidcSubject', '=', subject)
    .executeTakeFirst();
}

export type NewUser = Insertable<UsersTable>;

export async function insertUser(db: Db, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function updateUser(
  db: Db,
  contextId: string,
  id: string,
  values: Updateable<UsersTable>,
): Promise<void> {
  await db.updateTable('users').set(values).where('contextId', '=', contextId).where('id', '=', id).execute();
}

// ---- password resets (only a hash of the token is stored)

export async function insertPasswordReset(
  db: Db,
  row: { tokenHash: string; userId: string; expireAt: string; createdAt: string },
): Promise<void> {
  await db
    .insertInto('passwordResets')
    .values({ ...row, usedAt: null })
    .execute();
}

/** The reset of a token hash, only when its user belongs to this tenant. */
export async function findPasswordReset(db: Db, contextId: string, tokenHash: string) {
  return db
    .selectFrom('passwordResets as pr')
    .innerJoin('users as u', 'u.id', 'pr.userId')
    .select(['pr.tokenHash', 'pr.userId', 'pr.expireAt', 'pr.usedAt'])
    .where('pr.tokenHash', '=', tokenHash)
    .where('u.contextId', '=', contextId)
    .executeTakeFirst();
}

/** Marks a link used; false when another request used it first (single use under concurrency). */
export async function consumePasswordReset(db: Db, tokenHash: string, nowIso: string): Promise<boolean> {
  const res = await db
    .updateTable('passwordResets')
    .set({ usedAt: nowIso })
    .where('tokenHash', '=', tokenHash)
    .where('usedAt', 'is', null)
    .where('expireAt', '>', nowIso)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Every other pending link of the user dies with a password change. */
export async function usePendingPasswordResets(db: Db, userId: string, nowIso: string): Promise<void> {
  await db
    .updateTable('passwordResets')
    .set({ usedAt: nowIso })
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .execute();
}

// ---- invitation codes

/**
 * Counts one use of a code if it is of this tenant, not expired and not used up, in one
 * statement: concurrent registrations cannot exceed `max_uses`. Returns the code's class ids.
 */
export async function useInvitationCode(
  db: Db,
  contextId: string,
  code: string,
  nowIso: string,
): Promise<string[] | null> {
  const row = await db
    .updateTable('invitationCodes')
    .set({ uses: sql<number>`uses + 1` })
    .where('code', '=', code)
    .where('contextId', '=', contextId)
    .where((eb) => eb.or([eb('maxUses', 'is', null), eb('uses', '<', eb.ref('maxUses'))]))
    .where((eb) => eb.or([eb('expireAt', 'is', null), eb('expireAt', '>', nowIso)]))
    .returning('classIds')
    .executeTakeFirst();
  if (!row) return null;
  const ids = parseJson<unknown>(row.classIds, []);
  return Array.isArray(ids) ? ids.filter((v): v is string => typeof v === 'string') : [];
}

/** Enrols a learner as STUDENT in those of `classIds` that belong to the tenant. */
export async function enrolStudent(
  db: Db,
  contextId: string,
  userId: string,
  classIds: string[],
  nowIso: string,
): Promise<string[]> {
  if (classIds.length === 0) return [];
  const classes = await db
    .selectFrom('classes')
    .select('id')
    .where('contextId', '=', contextId)
    .where('id', 'in', classIds)
    .execute();
  if (classes.length === 0) return [];
  await db
    .insertInto('classUsers')
    .values(classes.map((c) => ({ id: newId(), classId: c.id, userId, role: 'STUDENT', createdAt: nowIso })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  return classes.map((c) => c.id);
}

// ---- hostnames, classes and files for mails and contact

export async function isTenantHostname(db: Db, contextId: string, hostname: string): Promise<boolean> {
  const row = await db
    .selectFrom('contextHostnames')
    .select('hostname')
    .where('contextId', '=', contextId)
    .where('hostname', '=', hostname)
    .executeTakeFirst();
  return row !== undefined;
}

/** A class of the tenant the user belongs to (any role). */
export async function findMemberClass(db: Db, contextId: string, userId: string, classId: string) {
  return db
    .selectFrom('classes as c')
    .innerJoin('classUsers as cu', 'cu.classId', 'c.id')
    .select(['c.id', 'c.name'])
    .where('c.contextId', '=', contextId)
    .where('c.id', '=', classId)
    .where('cu.userId', '=', userId)
    .executeTakeFirst();
}

export async function findClassTeachers(db: Db, classId: string) {
  return db
    .selectFrom('classUsers as cu')
    .innerJoin('users as u', 'u.id', 'cu.userId')
    .select(['u.id', 'u.email', 'u.firstname', 'u.lastname', 'u.username', 'u.preferredLocale'])
    .where('cu.classId', '=', classId)
    .where('cu.role', '=', 'TEACHER')
    .where('u.email', '<>', '')
    .orderBy('u.id')
    .execute();
}

export async function findTenantFiles(db: Db, contextId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('files')
    .selectAll()
    .where('contextId', '=', contextId)
    .where('id', 'in', ids)
    .execute();
}

/**
 * Everything that may name a file in the courses of the learner's lessons: the courses
 * themselves, their nodes (attachments) and the blocks of those nodes (attachments, content,
 * settings). Returned as raw JSON texts; the service looks for file ids in them.
 */
export async function courseTextsOfLearner(db: Db, contextId: string, userId: string): Promise<string[]> {
  const courseIds = db
    .selectFrom('lessons')
    .select('courseId')
    .where('contextId', '=', contextId)
    .where('userId', '=', userId);
  const courses = await db
    .selectFrom('courses')
    .select(['settings', 'video', 'description'])
    .where('contextId', '=', contextId)
    .where('id', 'in', courseIds)
    .execute();
  const nodes = await db
    .selectFrom('courseNodes')
    .select(['attachmentIds', 'settings', 'blockId'])
    .where('courseId', 'in', courseIds)
    .execute();
  const blockIds = [...new Set(nodes.map((n) => n.blockId).filter((id): id is string => id !== null))];
  const blocks: { attachmentIds: string; content: string; settings: string }[] = [];
  for (let i = 0; i < blockIds.length; i += 500) {
    blocks.push(
      ...(await db
        .selectFrom('courseBlocks')
        .select(['attachmentIds', 'content', 'settings'])
        .where('contextId', '=', contextId)
        .where('id', 'in', blockIds.slice(i, i + 500))
        .execute()),
    );
  }
  return [
    ...courses.flatMap((c) => [c.settings, c.video ?? '', c.description ?? '']),
    ...nodes.flatMap((n) => [n.attachmentIds, n.settings]),
    ...blocks.flatMap((b) => [b.attachmentIds, b.content, b.settings]),
  ];
}
