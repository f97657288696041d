import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { currentPagePath, toLessonPage, type LessonPage, type LessonPageDocument } from './lesson-page';
import { playerKeys } from './query-keys';

/**
 * The lesson's current page (created on first open), or an already reached page by id (previous
 * pages, correction mode). Past the last page the server answers NO_LESSON_PAGE_AVAILABLE.
 */
export async function getCurrentPage(
  lessonId: string,
  options: { pageId?: string | null; section?: string | null } = {},
  signal?: AbortSignal,
): Promise<LessonPage> {
  const doc = await apiFetch<LessonPageDocument>(currentPagePath(lessonId), {
    query: { noCache: Date.now(), pageId: options.pageId, section: options.section },
    signal,
  });
  return toLessonPage(doc);
}

export const currentPageQueryOptions = (lessonId: string, pageId: string | null) =>
  queryOptions({
    queryKey: playerKeys.page(lessonId, pageId),
    queryFn: ({ signal }) => getCurrentPage(lessonId, { pageId }, signal),
    // The player moves this entry itself (next, previous, answers); a background refetch would
    // jump back to whatever the route named.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnReconnect: false,
    retry: false,
    // Offline the call must fail (not wait paused): the player then resumes the page kept on the
    // device (decision 0013).
    networkMode: 'always',
  });

export function useCurrentPage(lessonId: string, pageId: string | null) {
  return useQuery(currentPageQueryOptions(lessonId, pageId));
}
