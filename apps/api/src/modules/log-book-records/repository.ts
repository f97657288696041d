import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { LogBookRecordsTable } from '../../db/schema';
import type { JsonApiQuery } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { Tx } from '../../db/tx';
import type { Viewer } from '../scope';
import { countRows, withSort } from '../scope';

export type LogBookRecordRow = Selectable<LogBookRecordsTable>;

/** Classes of the tenant where the viewer is a TEACHER, as a subquery. */
function taughtClassIds(db: Db, v: Viewer) {
  return db
    .selectFrom('classUsers as tcu')
    .innerJoin('classes as tc', 'tc.id', 'tcu.classId')
    .select('tc.id')
    .where('tcu.userId', '=', v.userId)
    .where('tcu.role', '=', 'TEACHER')
    .where('tc.contextId', '=', v.contextId);
}

/**
 * Notes the viewer may read: those about them, those they wrote, and — for a teacher — those
 * filed under a class they teach about a student of that class. A learner's notes without a
 * class stay between the learner and their author. Administrators read the whole tenant.
 */
function visible(db: Db, v: Viewer) {
  const qb = db.selectFrom('logBookRecords as l').where('l.contextId', '=', v.contextId);
  if (v.isAdmin) return qb;
  return qb.where((eb) =>
    eb.or([
      eb('l.studentId', '=', v.userId),
      eb('l.userId', '=', v.userId),
      eb.and([
        eb('l.classId', 'in', taughtClassIds(db, v)),
        eb(
          'l.studentId',
          'in',
          eb
            .selectFrom('classUsers as scu')
            .select('scu.userId')
            .whereRef('scu.classId', '=', 'l.classId')
            .where('scu.role', '=', 'STUDENT'),
        ),
      ]),
    ]),
  );
}

export interface LogBookListFilter {
  studentIds: string[] | null;
  companyIds: string[] | null;
}

export async function listLogBookRecords(
  db: Db,
  v: Viewer,
  f: LogBookListFilter,
  q: JsonApiQuery,
): Promise<{ rows: LogBookRecordRow[]; total: number }> {
  let qb = visible(db, v);
  if (f.studentIds) qb = qb.where('l.studentId', 'in', f.studentIds);
  if (f.companyIds) qb = qb.where('l.companyId', 'in', f.companyIds);
  const total = await countRows(qb);
  // Newest first unless asked otherwise: the logbook reads from the latest note down.
  const rows = await withSort(
    qb.selectAll('l'),
    q.sort,
    { createdAt: 'l.createdAt', lastInputAt: 'l.lastInputAt' },
    [{ field: 'createdAt', desc: true }],
    'l.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

/** A note of the tenant, whoever may see it (the service decides what the viewer may do). */
export async function findLogBookRecord(
  db: Db,
  contextId: string,
  id: string,
): Promise<LogBookRecordRow | undefined> {
  return db
    .selectFrom('logBookRecords')
    .selectAll()
    .where('contextId', '=', contextId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Which of these users exist in the tenant. */
export async function tenantUserIds(db: Db, contextId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('contextId', '=', contextId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Students (class role STUDENT) of the classes the viewer teaches, among these ids. */
export async function taughtStudentIds(db: Db, v: Viewer, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('classUsers as cu')
    .select('cu.userId')
    .where('cu.role', '=', 'STUDENT')
    .where('cu.userId', 'in', ids)
    .where('cu.classId', 'in', taughtClassIds(db, v))
    .execute();
  return new Set(rows.map((r) => r.userId));
}

/** The viewer's roles in a class of the tenant, and the class's company; null when no such class. */
export async function classMembership(
  db: Db,
  contextId: string,
  classId: string,
  userIds: string[],
): Promise<{ companyId: string | null; roles: Map<string, Set<string>> } | null> {
  const klass = await db
    .selectFrom('classes')
    .select(['id', 'companyId'])
    .where('contextId', '=', contextId)
    .where('id', '=', classId)
    .executeTakeFirst();
  if (!klass) return null;
  const members = await db
    .selectFrom('classUsers')
    .select(['userId', 'role'])
    .where('classId', '=', classId)
    .where('userId', 'in', userIds)
    .execute();
  const roles = new Map<string, Set<string>>();
  for (const m of members) roles.set(m.userId, (roles.get(m.userId) ?? new Set()).add(m.role));
  return { companyId: klass.companyId, roles };
}

/** Of these file ids, those of the tenant that this user uploaded. */
export async function ownedFileIds(
  db: Db,
  contextId: string,
  ownerId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('files')
    .select('id')
    .where('contextId', '=', contextId)
    .where('ownerId', '=', ownerId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function insertLogBookRecord(trx: Tx, row: LogBookRecordRow): Promise<void> {
  await trx.insertInto('logBookRecords').values(row).execute();
}

export async function updateLogBookRecord(
  trx: Tx,
  id: string,
  authorId: string,
  changes: Partial<Pick<LogBookRecordRow, 'title' | 'message' | 'attachmentIds'>> & { lastInputAt: string },
): Promise<boolean> {
  // The author condition is repeated here so the write itself never edits someone else's note.
  const result = await trx
    .updateTable('logBookRecords')
    .set(changes)
    .where('id', '=', id)
    .where('userId', '=', authorId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Authors of notes, public profile fields only (plus the e-mail for the viewer's own name). */
export async function authorsByIds(db: Db, contextId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['id', 'firstname', 'lastname', 'username', 'email', 'avatarId'])
    .where('contextId', '=', contextId)
    .where('id', 'in', ids)
    .execute();
}
