/**
 * Hints in page mode (docs/product.md §4): revealed one by one by the server, which counts what
 * is left; a hint with a cost asks first (the cost shown in the dialog), a free one shows at once.
 * The reveal is a mutation of the player's one scope (page-cache.ts); its hints are written into
 * the page shown, while it still is the page they were asked for.
 */
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import type { LessonPage } from './api/lesson-page';
import { unlockHint } from './api/unlock-hint';
import { writeOptions, type PageCache } from './page-cache';
import type { DialogControl } from './use-player-dialog';

export function usePlayerHints({
  lessonId,
  page,
  readOnly,
  cache,
  dialog,
  fail,
  announce,
}: {
  lessonId: string;
  page: LessonPage | null;
  readOnly: boolean;
  cache: PageCache;
  dialog: Pick<DialogControl, 'open' | 'close'>;
  fail: (error: unknown) => void;
  announce: (message: string) => void;
}) {
  const { t } = useTranslation();
  const hints = page ? (page.results?.hints ?? page.hints) : null;

  const unlock = useMutation({
    ...writeOptions(lessonId),
    onMutate: () => cache.cancelRead(),
    mutationFn: (from: LessonPage) => unlockHint(lessonId, from.id),
    onSuccess: (unlocked, from) => {
      cache.update(from.id, (shown) => ({ ...shown, hints: unlocked }));
      announce(t('player.hints.revealed', { number: unlocked.messages.length }));
    },
    onError: fail,
  });

  const revealHint = () => {
    dialog.close();
    if (page && !cache.writing()) unlock.mutate(page);
  };

  const requestHint = () => {
    if (!hints || hints.remaining <= 0 || readOnly) return;
    const cost = hints.nextMalus ?? 0;
    if (cost > 0) dialog.open({ kind: 'hint', cost });
    else revealHint();
  };

  return { hints, revealHint, requestHint };
}
