import type { Resource } from '../../plugins/jsonapi';
import { jsonStrings } from '../programs/serializer';
import { blockView } from '../lesson-pages/serializer';
import type { PublicBlockRow, TermRow } from './repository';

/**
 * The block's public view (the same as in a page document): content, template settings and the
 * number of hints. Hint texts are not here: in page mode each one is unlocked (and paid for)
 * through the player, and this read must not be a way around that.
 */
export function toBlockResource(row: PublicBlockRow, termIds: string[]): Resource {
  const view = blockView(row, []);
  return {
    type: 'course-blocks',
    id: row.id,
    attributes: {
      title: view.title,
      // Not `type`: JSON:API forbids an attribute of that name.
      kind: view.type,
      categoryId: row.categoryId,
      competencyId: row.competencyId,
      attachmentIds: jsonStrings(row.attachmentIds),
      settings: view.settings,
      content: view.content,
      termIds,
    },
  };
}

export function toTermResource(row: TermRow): Resource {
  return {
    type: 'course-terms',
    id: row.id,
    attributes: { title: row.title, words: jsonStrings(row.words), definition: row.definition },
  };
}
