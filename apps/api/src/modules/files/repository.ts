import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { FilesTable } from '../../db/schema';
import { parseJson } from '../../db/schema';

export type FileRow = Selectable<FilesTable>;

export async function findFile(db: Db, contextId: string, id: string): Promise<FileRow | undefined> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('contextId', '=', contextId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A tenant's branding (logo, favicon, touch icons, splash screens) is public: its assets name it. */
export function isBrandingFile(assetsJson: string, id: string): boolean {
  return assetsJson.includes(`/api/files/${id}/download`);
}

/**
 * Who may read a file (issue 10 finding 7):
 * - content media (no owner): any signed-in user of the tenant. Narrowing this to the learners
 *   of a class whose program uses the course would need the file's uses indexed (they sit inside
 *   block content); the tenant is the scope until then;
 * - an uploaded attachment (owner): its owner, the student and the author of a log-book record
 *   listing it, and the teachers of that record's class.
 */
export async function mayReadFile(db: Db, row: FileRow, userId: string): Promise<boolean> {
  if (row.ownerId === null) return true;
  if (row.ownerId === userId) return true;
  // LIKE narrows the candidates (a `_` in an id only widens them); the exact id is checked in
  // the parsed list below.
  const records = await db
    .selectFrom('logBookRecords')
    .select(['studentId', 'userId', 'classId', 'attachmentIds'])
    .where('contextId', '=', row.contextId)
    .where('attachmentIds', 'like', `%"${row.id}"%`)
    .execute();
  const listing = records.filter((r) => parseJson<unknown[]>(r.attachmentIds, []).includes(row.id));
  if (listing.some((r) => r.studentId === userId || r.userId === userId)) return true;
  const classIds = [...new Set(listing.map((r) => r.classId).filter((c): c is string => c !== null))];
  if (classIds.length === 0) return false;
  const teacher = await db
    .selectFrom('classUsers')
    .select('id')
    .where('userId', '=', userId)
    .where('role', '=', 'TEACHER')
    .where('classId', 'in', classIds)
    .executeTakeFirst();
  return teacher !== undefined;
}
