import type { BlockView, NodeView } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { playerKeys } from './query-keys';

export interface PageResource {
  block: BlockView | null;
  node: NodeView | null;
}

export interface ResourceFile {
  id: string;
  name: string;
  download: string;
}

export interface PageResources {
  resources: PageResource[];
  files: ResourceFile[];
}

/** The page's resources: resource blocks under its node, and the files attached to node and block. */
export async function getPageResources(pageId: string, lessonId: string, signal?: AbortSignal): Promise<PageResources> {
  const answer = await apiFetch<{ data?: PageResource[]; files?: ResourceFile[] }>(
    `pages/${encodeURIComponent(pageId)}/resources`,
    { query: { lessonId }, signal },
  );
  return {
    resources: Array.isArray(answer.data) ? answer.data : [],
    files: Array.isArray(answer.files) ? answer.files : [],
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
  return useQuery({
    ...pageResourcesQueryOptions(pageId ?? '', lessonId ?? ''),
    enabled: pageId !== null && lessonId !== null,
  });
}
