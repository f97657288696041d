import type { Db } from '../../db/db';
import type { Viewer } from '../scope';
import { visibleCourseIds } from '../scope';

export interface PublicBlockRow {
  id: string;
  title: string;
  type: string;
  categoryId: string | null;
  competencyId: string | null;
  attachmentIds: string;
  settings: string;
  content: string;
}

/** Blocks placed in a node of a course the viewer may see. Never selects `solution`. */
export async function visibleBlocksByIds(db: Db, v: Viewer, ids: string[]): Promise<PublicBlockRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('courseBlocks as b')
    .select([
      'b.id',
      'b.title',
      'b.type',
      'b.categoryId',
      'b.competencyId',
      'b.attachmentIds',
      'b.settings',
      'b.content',
    ])
    .where('b.contextId', '=', v.contextId)
    .where('b.id', 'in', ids)
    .where(
      'b.id',
      'in',
      db
        .selectFrom('courseNodes as bn')
        .select('bn.blockId')
        .where('bn.courseId', 'in', visibleCourseIds(db, v))
        .where('bn.blockId', 'is not', null)
        .$narrowType<{ blockId: string }>(),
    )
    .execute();
}

export interface TermRow {
  id: string;
  title: string;
  words: string;
  definition: string;
}

export async function termsByIds(db: Db, v: Viewer, ids: string[]): Promise<TermRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('courseTerms')
    .select(['id', 'title', 'words', 'definition'])
    .where('contextId', '=', v.contextId)
    .where('id', 'in', ids)
    .orderBy('title')
    .orderBy('id')
    .execute();
}

export async function termLinks(db: Db, blockIds: string[]): Promise<{ blockId: string; termId: string }[]> {
  if (blockIds.length === 0) return [];
  return db
    .selectFrom('courseBlockTerms')
    .select(['blockId', 'termId'])
    .where('blockId', 'in', blockIds)
    .execute();
}
