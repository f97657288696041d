import { ContentCache } from '../lesson-pages/content-cache';
import { loadAll } from '../lesson-pages/context';
import type { PlayerContext } from '../lesson-pages/context';
import { learnerAnswerView } from '../lesson-pages/disclosure';
import { lessonsWithAccommodation } from '../lesson-pages/repository';
import type { ExportRun } from './register';

/**
 * Every page of her lessons, every attempt, for the export (decision 0056): her inputs, times and
 * scores as stored, and the results and sheet as the player would show them to her now
 * (lesson-pages/disclosure.ts, the player's own rule). Left out: a module page's launch token,
 * a secret. Read with a content cache of this export's own, as the player reads content.
 */
export async function learnerPages(x: ExportRun): Promise<unknown[]> {
  const lessons = await lessonsWithAccommodation(x.db)
    .where('l.userId', '=', x.who.userId)
    .where('l.contextId', '=', x.who.contextId)
    .orderBy('l.createdAt')
    .execute();
  if (lessons.length === 0) return [];
  const ctx: PlayerContext = {
    db: x.db,
    kind: x.kind,
    contextId: x.who.contextId,
    userId: x.who.userId,
    receivedAt: x.now,
    cache: new ContentCache(),
  };
  const pages = await x.db
    .selectFrom('lessonPages')
    .selectAll()
    .where(
      'lessonId',
      'in',
      lessons.map((l) => l.id),
    )
    .orderBy('lessonId')
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  const out: unknown[] = [];
  for (const lesson of lessons) {
    const own = pages.filter((p) => p.lessonId === lesson.id);
    if (own.length === 0) continue;
    // A lesson whose course can no longer be read: its pages show no key and no value.
    const l = await loadAll(ctx, lesson).catch(() => null);
    for (const row of own) {
      // A lesson whose course can no longer be read shows no key and no value.
      const shown = l
        ? await learnerAnswerView(ctx, l, row)
        : { results: null, sheet: { datasetComputed: {} } };
      const { launchToken: _secret, results: _stored, sheet: _drawn, ...page } = row;
      out.push({ ...page, results: shown.results, sheet: shown.sheet });
    }
  }
  return out;
}
