import type { CourseAttributes, Document, LessonAttributes, Resource } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { indexDocument, relatedOne } from '../../../lib/json-api';
import { progressionKeys } from './query-keys';

export type LessonResource = Resource<string, LessonAttributes>;

export interface EndedLesson {
  id: string;
  attributes: LessonAttributes;
  /** The finished course's title; null when the course was not included (hidden course). */
  courseTitle: string | null;
}

export const lessonPath = (lessonId: string) => `lessons/${encodeURIComponent(lessonId)}`;

/**
 * The lesson, reloaded (SPEC §4: the end screens and "choosing a lesson" both start from a
 * fresh copy, since the server has just changed its actions and unlocked lessons).
 */
export async function getLesson(lessonId: string, signal?: AbortSignal): Promise<EndedLesson> {
  const doc = await apiFetch<Document<LessonResource>>(lessonPath(lessonId), {
    query: { include: 'course', noCache: Date.now() },
    signal,
  });
  const course = relatedOne<CourseAttributes>(doc.data, 'course', indexDocument(doc));
  return { id: doc.data.id, attributes: doc.data.attributes, courseTitle: course?.attributes.title ?? null };
}

export const lessonQueryOptions = (lessonId: string) =>
  queryOptions({
    queryKey: progressionKeys.lesson(lessonId),
    queryFn: ({ signal }) => getLesson(lessonId, signal),
    // The screens read what the server decided a moment ago; a cached copy would be a lie.
    staleTime: 0,
  });

export function useLesson(lessonId: string) {
  return useQuery(lessonQueryOptions(lessonId));
}
