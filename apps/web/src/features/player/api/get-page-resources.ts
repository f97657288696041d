import type { BlockView, NodeView } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAfterFirstScreen } from '../../../lib/after-first-screen';
import { apiFetch } from '../../../lib/api-client';
import { OFFLINE_ID_PREFIX } from '../offline/lesson-store';
import { playerKeys } from './query-keys';

export interface PageResource {
  block: BlockView | null;
  node: NodeView | null;
}

export interface ResourceFile {
  id: string;
  name: string;
  /** The URL the API gave, signed for the learner. */
  download: string;
  mimeType?: string;
  fileType?: string;
  /** Bytes (shown in o, Ko, Mo, Go, To). */
  size?: number;
}

export interface PageResources {
  resources: PageResource[];
  files: ResourceFile[];
}

/**
 * The page's resources: resource blocks under its node (`page-resources` resources), and the
 * files attached to node and block (`meta.files`).
 */
export async function getPageResources(
  pageId: string,
  lessonId: string,
  signal?: AbortSignal,
): Promise<PageResources> {
  const answer = await apiFetch<{ data?: { attributes: PageResource }[]; meta?: { files?: ResourceFile[] } }>(
    `pages/${encodeURIComponent(pageId)}/resources`,
    { query: { lessonId }, signal },
  );
  return {
    resources: Array.isArray(answer.data) ? answer.data.map((r) => r.attributes) : [],
    files: Array.isArray(answer.meta?.files) ? answer.meta.files : [],
  };
}

export const pageResourcesQueryOptions = (pageId: string, lessonId: string) =>
  queryOptions({
    queryKey: playerKeys.resources(pageId, lessonId),
    queryFn: ({ signal }) => getPageResources(pageId, lessonId, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });

export function usePageResources(pageId: string | null, lessonId: string | null) {
  // The toolbar's resources button: asked once the first page is painted, so on a slow phone
  // this read never comes before the page itself (issue 11, decision 0030); at once afterwards.
  const afterFirstScreen = useAfterFirstScreen();
  // A page kept on the device for offline play has no id on the server (`offline:`): nothing to
  // ask for it, not even once the network is back.
  const served = pageId !== null && !pageId.startsWith(OFFLINE_ID_PREFIX);
  return useQuery({
    ...pageResourcesQueryOptions(pageId ?? '', lessonId ?? ''),
    enabled: afterFirstScreen && served && lessonId !== null,
  });
}
