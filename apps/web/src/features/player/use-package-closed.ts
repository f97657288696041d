/**
 * A package's dialog closed, or the package finished by itself (decision 0050): the server now
 * holds its score, completion and time, so the page shown and the lesson are read again. The
 * page is replaced only while it is still the one shown.
 */
import { useQueryClient } from '@tanstack/react-query';
import { getCurrentPage } from './api/get-current-page';
import type { LessonPage } from './api/lesson-page';
import { playerKeys } from './api/query-keys';
import { isNetworkError } from './offline/device';
import type { PageCache } from './page-cache';

export function usePackageClosed({
  lessonId,
  page,
  playing,
  cache,
  fail,
}: {
  lessonId: string;
  page: LessonPage | null;
  playing: boolean;
  cache: PageCache;
  fail: (error: unknown) => void;
}): () => void {
  const client = useQueryClient();
  return () => {
    if (!page || !playing) return;
    void getCurrentPage(lessonId, { pageId: page.id }).then(
      (fresh) => cache.update(fresh.id, () => fresh),
      (error: unknown) => {
        if (!isNetworkError(error)) fail(error);
      },
    );
    void client.invalidateQueries({ queryKey: playerKeys.lesson(lessonId) });
  };
}
