import { sql } from 'kysely';
import type { Db } from '../../db/db';
import type { Viewer } from '../scope';
import { attachmentIdsOf } from './serializer';

/** `%"id"%` for LIKE, with LIKE's own wildcards in the id (base64url has `_`) escaped by `!`. */
function jsonMemberPattern(id: string): string {
  return `%${JSON.stringify(id).replace(/[!%_]/g, '!$&')}%`;
}

/**
 * Whether the viewer may download an uploaded attachment: its owner (the uploader); the student
 * and the author of a note listing it; a teacher of that note's class. Administrators see the
 * tenant. For the files routes (issue 10), which decide who is served what; content media of
 * courses follow their own rule there.
 */
export async function canSeeAttachment(db: Db, v: Viewer, fileId: string): Promise<boolean> {
  const file = await db
    .selectFrom('files')
    .select(['ownerId'])
    .where('contextId', '=', v.contextId)
    .where('id', '=', fileId)
    .executeTakeFirst();
  if (!file) return false;
  if (v.isAdmin || file.ownerId === v.userId) return true;
  const candidates = await db
    .selectFrom('logBookRecords as l')
    .select('l.attachmentIds')
    .where('l.contextId', '=', v.contextId)
    .where(sql<boolean>`${sql.ref('l.attachmentIds')} like ${jsonMemberPattern(fileId)} escape '!'`)
    .where((eb) =>
      eb.or([
        eb('l.studentId', '=', v.userId),
        eb('l.userId', '=', v.userId),
        eb(
          'l.classId',
          'in',
          eb
            .selectFrom('classUsers as cu')
            .select('cu.classId')
            .where('cu.userId', '=', v.userId)
            .where('cu.role', '=', 'TEACHER'),
        ),
      ]),
    )
    .limit(20)
    .execute();
  // LIKE only narrows; the JSON list decides (an id could appear inside another text).
  return candidates.some((row) => attachmentIdsOf(row).includes(fileId));
}
