import type { Document, LessonAttributes, Resource } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { lessonPath } from './lesson-page';
import { playerKeys } from './query-keys';

export type LessonResource = Resource<string, LessonAttributes>;

/** The lesson, fresh: the end-of-lesson rules read its progress and actions. */
export async function getLesson(lessonId: string, signal?: AbortSignal): Promise<LessonResource> {
  const doc = await apiFetch<Document<LessonResource>>(lessonPath(lessonId), {
    query: { noCache: Date.now() },
    signal,
  });
  return doc.data;
}

export const lessonQueryOptions = (lessonId: string) =>
  queryOptions({
    queryKey: playerKeys.lesson(lessonId),
    queryFn: ({ signal }) => getLesson(lessonId, signal),
    staleTime: 0,
  });

export function useLesson(lessonId: string) {
  return useQuery(lessonQueryOptions(lessonId));
}
