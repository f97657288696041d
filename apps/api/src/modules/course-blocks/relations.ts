import type { Relations } from '../../plugins/jsonapi';
import type { Scope } from '../scope';
import { groupBy } from '../scope';
import { termLinks, termsByIds } from './repository';
import { toTermResource } from './serializer';

/** A block's terms, for `include=terms` here and on course nodes (course-nodes/routes.ts). */
export const blockRelations: Relations<Scope> = {
  'course-blocks': {
    terms: {
      many: true,
      async load({ db, viewer }, parents) {
        const links = await termLinks(
          db,
          parents.map((p) => p.id),
        );
        const terms = new Map(
          (await termsByIds(db, viewer, [...new Set(links.map((l) => l.termId))])).map((t) => [
            t.id,
            toTermResource(t),
          ]),
        );
        const byBlock = groupBy(links, (l) => l.blockId);
        return new Map(
          parents.map((p) => [p.id, (byBlock.get(p.id) ?? []).flatMap((l) => terms.get(l.termId) ?? [])]),
        );
      },
    },
  },
};
