import { displayName } from '@parcours/domain/display-name';
import type { LogBookRecordAttributes } from '@parcours/domain/logbook';
import { parseJson } from '../../db/schema';
import type { Resource } from '../../plugins/jsonapi';
import type { LogBookRecordRow } from './repository';

export function attachmentIdsOf(row: Pick<LogBookRecordRow, 'attachmentIds'>): string[] {
  const value = parseJson<unknown>(row.attachmentIds, []);
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

/** docs/product.md §3 LogBookRecord. */
export function toLogBookRecordResource(row: LogBookRecordRow): Resource {
  const attributes: LogBookRecordAttributes = {
    title: row.title,
    message: row.message,
    createdAt: row.createdAt,
    lastInputAt: row.lastInputAt,
    studentId: row.studentId,
    userId: row.userId,
    attachmentIds: attachmentIdsOf(row),
    parentId: row.parentId,
    classId: row.classId,
    companyId: row.companyId,
  };
  return { type: 'log-book-records', id: row.id, attributes: { ...attributes } };
}

export interface AuthorRow {
  id: string;
  firstname: string | null;
  lastname: string | null;
  username: string | null;
  email: string;
  avatarId: string | null;
}

/**
 * An author as other people see them: display name and avatar only. The e-mail is a fallback
 * of the viewer's own name alone, so a learner never learns a teacher's address from a note.
 */
export function toAuthorResource(row: AuthorRow, viewerId: string): Resource {
  const name = displayName({ ...row, email: row.id === viewerId ? row.email : null });
  return { type: 'users', id: row.id, attributes: { displayName: name, avatarId: row.avatarId } };
}
