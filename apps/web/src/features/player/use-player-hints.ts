/**
 * Hints in page mode (docs/product.md §4): revealed one by one by the server, which counts what
 * is left; a hint with a cost asks first, a free one shows at once.
 */
import type { Dispatch, SetStateAction } from 'react';
import { useTranslation } from '../../lib/i18n';
import type { LessonPage } from './api/lesson-page';
import { unlockHint } from './api/unlock-hint';

export function usePlayerHints({
  lessonId,
  page,
  readOnly,
  run,
  setMoved,
  askCost,
  closeDialog,
  announce,
}: {
  lessonId: string;
  page: LessonPage | null;
  readOnly: boolean;
  /** Runs a call as the player runs every call: one at a time, failures to the error path. */
  run: (work: () => Promise<void>) => Promise<void>;
  setMoved: Dispatch<SetStateAction<LessonPage | null>>;
  /** Shows the confirmation of a hint's cost. */
  askCost: (cost: number) => void;
  closeDialog: () => void;
  announce: (message: string) => void;
}) {
  const { t } = useTranslation();
  const hints = page ? (page.results?.hints ?? page.hints) : null;

  const revealHint = () => {
    if (!page) return;
    closeDialog();
    void run(async () => {
      const unlocked = await unlockHint(lessonId, page.id);
      setMoved({ ...page, hints: unlocked });
      announce(t('player.hints.revealed', { number: unlocked.messages.length }));
    });
  };

  const requestHint = () => {
    if (!hints || hints.remaining <= 0 || readOnly) return;
    const cost = hints.nextMalus ?? 0;
    if (cost > 0) askCost(cost);
    else revealHint();
  };

  return { hints, revealHint, requestHint };
}
