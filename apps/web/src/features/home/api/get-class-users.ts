import { DASHBOARD_REFRESH_MS } from '@parcours/domain/constants';
import type { ClassUserAttributes, Document, Resource } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchCollection } from '../../../lib/api-collection';
import { homeKeys } from './query-keys';

export type ClassUsersDocument = Document<Resource<string, ClassUserAttributes>[]>;

/** The learner's own STUDENT class memberships with classes, programs, courses and teachers (SPEC §7). */
export function getClassUsers(expired: boolean, signal?: AbortSignal): Promise<ClassUsersDocument> {
  return fetchCollection<ClassUserAttributes>(
    'class-users',
    {
      'filter[role]': 'STUDENT',
      'filter[expired]': expired,
      sort: '-createdAt',
      include: 'class.classPrograms.program.programCourses.course,class.teachers',
    },
    signal,
  );
}

export const classUsersQueryOptions = (expired: boolean) =>
  queryOptions({
    queryKey: homeKeys.classUsers(expired),
    queryFn: ({ signal }) => getClassUsers(expired, signal),
    // SPEC §9: the dashboard's classes refresh every 20 s (only while the page is visible).
    refetchInterval: DASHBOARD_REFRESH_MS,
  });

export function useClassUsers(expired: boolean) {
  return useQuery(classUsersQueryOptions(expired));
}
