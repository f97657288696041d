import { LOGBOOK_MESSAGE_KEYS } from '@parcours/domain/logbook';
import type { LogBookRecordCreate, LogBookRecordUpdate } from '@parcours/domain/logbook';
import type { Db, DbKind } from '../../db/db';
import { parseJson } from '../../db/schema';
import { newId } from '../../lib/ids';
import { ApiError } from '../../plugins/errors';
import { writeTx } from '../../db/tx';
import { budgetOf, spend } from '../quotas/budget';
import type { Viewer } from '../scope';
import { notFound } from '../scope';
import {
  classMembership,
  findLogBookRecord,
  insertLogBookRecord,
  ownedFileIds,
  taughtStudentIds,
  tenantUserIds,
  updateLogBookRecord,
} from './repository';
import type { LogBookRecordRow } from './repository';

function forbidden(detail: string, pointer?: string): ApiError {
  return new ApiError(403, 'Forbidden', detail, pointer ? { pointer } : undefined);
}

/**
 * `filter[studentId]` (`me` allowed): oneself, or students of a class the viewer teaches;
 * anyone else of the tenant is 403, a user of no tenant of ours 404. Without it, the notes
 * about the viewer.
 */
export async function allowedStudentIds(
  db: Db,
  v: Viewer,
  requested: string[] | undefined,
): Promise<string[]> {
  const ids = [...new Set((requested ?? ['me']).map((id) => (id === 'me' ? v.userId : id)))];
  const others = ids.filter((id) => id !== v.userId);
  if (others.length === 0) return ids;
  const known = await tenantUserIds(db, v.contextId, others);
  if (others.some((id) => !known.has(id))) throw notFound('Student');
  if (v.isAdmin) return ids;
  const taught = await taughtStudentIds(db, v, others);
  if (others.some((id) => !taught.has(id))) {
    throw forbidden('You may only read the logbook of the students of the classes you teach.', undefined);
  }
  return ids;
}

/** Attachments must be files the author uploaded, or already on the note being edited. */
async function checkAttachments(db: Db, v: Viewer, ids: string[], alreadyAttached: string[]): Promise<void> {
  const fresh = ids.filter((id) => !alreadyAttached.includes(id));
  const owned = await ownedFileIds(db, v.contextId, v.userId, fresh);
  const bad = ids.findIndex((id) => !alreadyAttached.includes(id) && !owned.has(id));
  if (bad >= 0) {
    throw new ApiError(400, 'VALIDATION_ERROR', LOGBOOK_MESSAGE_KEYS.attachmentId, {
      pointer: `/attachmentIds/${bad}`,
    });
  }
}

/**
 * A learner writes about themselves (in one of their classes, when a class is named). A teacher
 * writes about a student of a class they teach, naming that class. The note takes the class's
 * company (docs/product.md §3 LogBookRecord.companyId).
 */
export async function createLogBookRecord(
  db: Db,
  kind: DbKind,
  v: Viewer,
  input: LogBookRecordCreate,
  now: Date,
): Promise<LogBookRecordRow> {
  const studentId = !input.studentId || input.studentId === 'me' ? v.userId : input.studentId;
  const classId = input.classId ?? null;
  let companyId: string | null = null;

  if (studentId !== v.userId) {
    const known = await tenantUserIds(db, v.contextId, [studentId]);
    if (!known.has(studentId)) throw notFound('Student');
    if (!classId) {
      throw new ApiError(
        400,
        'VALIDATION_ERROR',
        'A note about a student names the class you teach them in.',
        { pointer: '/classId' },
      );
    }
  }
  if (classId) {
    const members = await classMembership(db, v.contextId, classId, [v.userId, studentId]);
    if (!members) throw notFound('Class');
    companyId = members.companyId;
    const mine = members.roles.get(v.userId);
    if (studentId === v.userId) {
      if (!mine && !v.isAdmin)
        throw forbidden('You may only file a note under one of your classes.', '/classId');
    } else if (!members.roles.get(studentId)?.has('STUDENT')) {
      throw forbidden('This student is not a student of this class.', '/studentId');
    } else if (!mine?.has('TEACHER') && !v.isAdmin) {
      throw forbidden('Only a teacher of the class may write a note about its students.', '/classId');
    }
  }

  let parentId: string | null = null;
  if (input.parentId) {
    const parent = await findLogBookRecord(db, v.contextId, input.parentId);
    if (!parent || parent.studentId !== studentId) throw notFound('Parent note');
    parentId = parent.id;
  }

  await checkAttachments(db, v, input.attachmentIds, []);
  const iso = now.toISOString();
  const row: LogBookRecordRow = {
    id: newId(),
    contextId: v.contextId,
    title: input.title,
    message: input.message,
    studentId,
    userId: v.userId,
    parentId,
    classId,
    companyId,
    attachmentIds: JSON.stringify(input.attachmentIds),
    createdAt: iso,
    lastInputAt: iso,
  };
  const budget = budgetOf(db);
  await writeTx(db, kind, async (trx) => {
    // Notes a day per author (issue 29 R3-12), charged with the note itself (issue 36).
    await spend(
      trx,
      budget,
      { contextId: v.contextId, userId: v.userId, road: 'notes', rows: 1, bytes: 0 },
      now,
    );
    await insertLogBookRecord(trx, row);
  });
  return row;
}

/** Only the author edits a note; every edit moves `lastInputAt`. */
export async function updateLogBookRecordOf(
  db: Db,
  kind: DbKind,
  v: Viewer,
  id: string,
  input: LogBookRecordUpdate,
  now: Date,
): Promise<LogBookRecordRow> {
  const row = await findLogBookRecord(db, v.contextId, id);
  if (!row) throw notFound('Log book record');
  if (row.userId !== v.userId) throw forbidden('Only the author of a note may edit it.');
  const attached = parseJson<unknown>(row.attachmentIds, []);
  const current = Array.isArray(attached) ? attached.filter((a): a is string => typeof a === 'string') : [];
  if (input.attachmentIds) await checkAttachments(db, v, input.attachmentIds, current);

  const changes = {
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.message !== undefined ? { message: input.message } : {}),
    ...(input.attachmentIds !== undefined ? { attachmentIds: JSON.stringify(input.attachmentIds) } : {}),
    lastInputAt: now.toISOString(),
  };
  const updated = await writeTx(db, kind, (trx) => updateLogBookRecord(trx, row.id, v.userId, changes));
  if (!updated) throw notFound('Log book record');
  return { ...row, ...changes };
}
