import { DASHBOARD_REFRESH_MS } from '@parcours/domain/constants';
import type { LessonAttributes, Resource } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchCollection } from '../../../lib/api-collection';
import { lessonsQuery } from './home-queries';
import { withKeptCopy } from './kept-reads';
import { homeKeys } from './query-keys';

/** How long a read of the lessons is taken as current by a home that mounts. */
export const LESSONS_FRESH_MS = 1_000;

/**
 * What the home shows of a lesson (model.ts: the class cards; ResumeCard.model.ts): where it
 * belongs, its state, progress and score, and whether it was started. The rest of the API's
 * lesson (its pages' tree twice over, its actions: 5 of every 6 bytes) is the player's, so it
 * stays out of the home's query cache, and with it out of a drawn home's data (the page shrank
 * from 124 to 70 kB) and out of the copy kept on the device.
 */
export const HOME_LESSON_FIELDS = [
  'classId',
  'classProgramId',
  'programCourseId',
  'courseId',
  'state',
  'progress',
  'percentProgression',
  'scoring',
  'startedAt',
] as const satisfies readonly (keyof LessonAttributes)[];

export type HomeLessonAttributes = Pick<LessonAttributes, (typeof HOME_LESSON_FIELDS)[number]>;
export type LessonResource = Resource<string, HomeLessonAttributes>;

/** The home's part of one lesson of the API (type and id, its fields, no relationships). */
export function homeLesson(lesson: Resource<string, LessonAttributes>): LessonResource {
  const attributes = Object.fromEntries(
    HOME_LESSON_FIELDS.map((field) => [field, lesson.attributes[field]]),
  ) as HomeLessonAttributes;
  return { type: lesson.type, id: lesson.id, attributes };
}

/** The learner's lessons (state, progress, score) to show on each class card. */
export async function getLessons(userId: string, signal?: AbortSignal): Promise<LessonResource[]> {
  const doc = await fetchCollection<LessonAttributes>('lessons', lessonsQuery(userId), signal);
  return doc.data.map(homeLesson);
}

export const lessonsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: homeKeys.lessons(userId),
    // Offline, the copy kept on the device for this user (a cold start on a train, issue 12).
    queryFn: ({ signal }) => withKeptCopy(userId || null, 'lessons', () => getLessons(userId, signal)),
    // Run even when the browser says offline (the query cache would pause): the kept copy answers.
    networkMode: 'always',
    // docs/product.md §9: lesson visibility on the dashboard refreshes every 20 s (only while visible).
    refetchInterval: DASHBOARD_REFRESH_MS,
    // Coming back from a lesson, the lessons it unlocked must show at once, not 20 s later: a read
    // is fresh for a second only, so each new home asks again, but the home's first screen does
    // not ask twice for the read made just before it rendered (app/first-screen.ts).
    staleTime: LESSONS_FRESH_MS,
    // Only a home's first reader asks again on mounting: what mounts later in the same home (the
    // filters, after the first screen: decision 0030) shares its read. On a slow phone that came
    // more than a second after a drawn home's hydration and read the lessons a second time.
    refetchOnMount: (query) => query.getObserversCount() <= 1,
  });

export function useLessons(userId: string) {
  return useQuery(lessonsQueryOptions(userId));
}
