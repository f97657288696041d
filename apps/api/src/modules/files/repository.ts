import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { FilesTable } from '../../db/schema';

export type FileRow = Selectable<FilesTable>;

// Files are content media of the tenant (images, PDFs, sounds of courses, logos): any user of
// the tenant may read them, so the tenant is the only scope.
export async function findFile(db: Db, contextId: string, id: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('contextId', '=', contextId).where('id', '=', id).executeTakeFirst();
}
