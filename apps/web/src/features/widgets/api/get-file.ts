import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * `GET files/{id}/infos` (SPEC §3, §7): a stored file as the widgets need it. `download` is the
 * URL the API gave (signed for the learner); `htmlPlayer` is the server's ready-made player
 * (an `<audio>` or `<video>` element) for a file that can be played, null for any other.
 */
export interface FileInfo {
  id: string;
  name: string;
  mimeType: string;
  fileType: string;
  size: number;
  download: string;
  htmlPlayer: string | null;
}

export const widgetKeys = {
  all: ['widgets'] as const,
  file: (id: string) => [...widgetKeys.all, 'file', id] as const,
};

/** A row's `audioFileId` names its sound by id only: the infos call says what it is and how to play it. */
export async function getFile(id: string, signal?: AbortSignal): Promise<FileInfo> {
  const answer = await apiFetch<Omit<FileInfo, 'mimeType'> & { type: string }>(
    `files/${encodeURIComponent(id)}/infos`,
    { signal },
  );
  const { type, ...rest } = answer;
  return { ...rest, mimeType: type, htmlPlayer: answer.htmlPlayer ?? null };
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
