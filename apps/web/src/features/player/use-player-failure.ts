/**
 * Where the player's failures go (docs/product.md §8): no network is no reason to leave the lesson
 * (the banner says it is offline); NO_LESSON_PAGE_AVAILABLE leaves it; a 401 is already on its way
 * to the sign-in page; anything else is the error dialog. Also the page's failed load, as a code.
 */
import { readErrorCode, type ErrorCode } from '@parcours/domain/errors';
import { useEffect } from 'react';
import { isNetworkError } from './offline/device';
import { useLeaveLesson } from './use-leave-lesson';
import type { PlayerDialog } from './use-player-dialog';

/** Codes that go home without a dialog: a 401 is already on its way to the sign-in page. */
const SILENT_CODES: ReadonlySet<ErrorCode> = new Set(['UNAUTHORIZED']);

export function usePlayerFailure({
  lessonId,
  playing,
  queryError,
  open,
}: {
  lessonId: string;
  playing: boolean;
  /** The page's read failure, if any. */
  queryError: unknown;
  open: (dialog: PlayerDialog) => void;
}) {
  const leave = useLeaveLesson(lessonId, () => open({ kind: 'error', code: 'NO_LESSON_PAGE_AVAILABLE' }));

  const fail = (error: unknown) => {
    if (isNetworkError(error)) return;
    const code = readErrorCode(error);
    if (code === 'NO_LESSON_PAGE_AVAILABLE') {
      void leave('noPage');
      return;
    }
    if (code && SILENT_CODES.has(code)) return;
    if (!code) console.error(error);
    open({ kind: 'error', code: code ?? 'UNDEFINED' });
  };

  const loadCode =
    // Offline, a failed load resumes from the device (or says the lesson is not kept there).
    queryError && !(playing && isNetworkError(queryError))
      ? (readErrorCode(queryError) ?? 'UNDEFINED')
      : null;
  useEffect(() => {
    if (loadCode === 'NO_LESSON_PAGE_AVAILABLE') void leave('noPage');
    // leave() reads only refs and stable values; running it again for the same error would repeat the flow.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadCode]);

  return {
    fail,
    leave,
    /** The failed load to show instead of the page (none when the flow above handles it). */
    loadError:
      loadCode && loadCode !== 'NO_LESSON_PAGE_AVAILABLE' && !SILENT_CODES.has(loadCode) ? loadCode : null,
  };
}
