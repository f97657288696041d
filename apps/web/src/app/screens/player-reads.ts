import type { ReadsContext } from '../route-meta';

/**
 * A player page's first reads, for a page drawn on the server (decision 0046): the lesson's
 * current page (or the one the address names) and its resources. In the browser the loader reads
 * nothing here: the player asks for its page itself, once (its entry lives only while shown,
 * gcTime 0, so an entry read before the player mounts would be gone), and offline it resumes the
 * page kept on the device instead (decision 0013).
 */
export async function loadPlayerReads({ params, client, server }: ReadsContext): Promise<unknown> {
  const lessonId = params.id;
  if (!server || !lessonId) return;
  const pageId = params.pageId ?? null;
  const [{ currentPageQueryOptions }, { pageResourcesQueryOptions }] = await Promise.all([
    import('../../features/player/api/get-current-page'),
    import('../../features/player/api/get-page-resources'),
  ]);
  // The player's entry is dropped as soon as nothing shows it (gcTime 0): this one must last
  // until the page's state is written.
  const page = await client.ensureQueryData({
    ...currentPageQueryOptions(lessonId, pageId),
    gcTime: Infinity,
  });
  await client.ensureQueryData(pageResourcesQueryOptions(page.id, lessonId));
}
