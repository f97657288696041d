import { matchPath } from 'react-router';
import type { PrefetchContext } from '../routes';

/**
 * A player page's first reads, for a page drawn on the server (decision 0046): the lesson's
 * current page (or the one the address names) and its resources. The browser's own start does
 * not prefetch here: the player asks for its page itself, once (its entry lives only while shown).
 */
export async function prefetchPlayer({ pathname, client }: PrefetchContext): Promise<unknown> {
  if (!client) return;
  const withPage = matchPath('/session/:id/page/:pageId', pathname);
  const lessonId = (withPage ?? matchPath('/session/:id', pathname))?.params.id;
  if (!lessonId) return;
  const pageId = withPage?.params.pageId ?? null;
  const [{ currentPageQueryOptions }, { pageResourcesQueryOptions }] = await Promise.all([
    import('../../features/player/api/get-current-page'),
    import('../../features/player/api/get-page-resources'),
  ]);
  // The player's entry is dropped as soon as nothing shows it (gcTime 0): this one must last
  // until the page's state is written.
  await client.prefetchQuery({ ...currentPageQueryOptions(lessonId, pageId), gcTime: Infinity });
  const page = client.getQueryData(currentPageQueryOptions(lessonId, pageId).queryKey);
  if (page) await client.prefetchQuery(pageResourcesQueryOptions(page.id, lessonId));
}
