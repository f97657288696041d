import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** A stored file as the widgets need it; `download` is the URL the API gave (signed for the learner). */
export interface FileInfo {
  id: string;
  name: string;
  mimeType: string;
  fileType: string;
  size: number;
  download: string;
}

export const widgetKeys = {
  all: ['widgets'] as const,
  file: (id: string) => [...widgetKeys.all, 'file', id] as const,
};

/** `GET /files/{id}` (SPEC §7): a row's `audioFileId` names its sound by id only. */
export async function getFile(id: string, signal?: AbortSignal): Promise<FileInfo> {
  const answer = await apiFetch<{ data: { id: string; attributes: Omit<FileInfo, 'id'> } }>(
    `files/${encodeURIComponent(id)}`,
    { signal },
  );
  return { id: answer.data.id, ...answer.data.attributes };
}

export const fileQueryOptions = (id: string) =>
  queryOptions({
    queryKey: widgetKeys.file(id),
    queryFn: ({ signal }) => getFile(id, signal),
    // The download URL is signed for a limited time: fetch it again rather than keep an old one.
    staleTime: 60_000,
    gcTime: 60_000,
    retry: false,
  });

export function useFile(id: string | null) {
  return useQuery({ ...fileQueryOptions(id ?? ''), enabled: id !== null && id !== '' });
}
