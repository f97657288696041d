/**
 * The page-mode player (docs/product.md §4 lesson player, next flow, hints, feedbacks, timed pages,
 * NO_LESSON_PAGE_AVAILABLE): the page shown, read from the query cache, its one copy (page-cache.ts).
 * The server decides; the player's other concerns each have their hook, composed by PlayerPage:
 * answering (use-answer.ts), moving (use-page-moves.ts), hints (use-player-hints.ts), the answers
 * not sent yet (use-page-drafts.ts), a module's score (use-tincan-score.ts), a package's close
 * (use-package-closed.ts), failures and leaving (use-player-failure.ts, use-leave-lesson.ts), the
 * dialog and announcements (use-player-dialog.ts), offline play (offline/use-player-offline.ts)
 * and the clocks (use-timers.ts).
 */
import { useCurrentPage } from './api/get-current-page';
import { isAnswered, needsTimedStart } from './player-model';

export type PlayerMode = 'page' | 'correction';

export function usePagePlayer(lessonId: string, pageId: string | null, mode: PlayerMode) {
  const query = useCurrentPage(lessonId, pageId);
  const page = query.data ?? null;
  const playing = mode === 'page';
  const waitingForStart = page !== null && playing && needsTimedStart(page);
  return {
    query,
    page,
    playing,
    waitingForStart,
    /** Nothing to change: correction mode, an answered page, or a timed page not started. */
    readOnly: !playing || page === null || isAnswered(page) || waitingForStart,
  };
}
