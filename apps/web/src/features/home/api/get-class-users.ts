import { DASHBOARD_REFRESH_MS } from '@parcours/domain/constants';
import type { ClassUserAttributes, Document, Resource } from '@parcours/domain/entities';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchCollection } from '../../../lib/api-collection';
import { classUsersQuery } from './home-queries';
import { currentUserId, withKeptCopy } from './kept-reads';
import { homeKeys } from './query-keys';

export type ClassUsersDocument = Document<Resource<string, ClassUserAttributes>[]>;

/** The learner's own STUDENT class memberships with classes, programs, courses and teachers (SPEC §7). */
export function getClassUsers(expired: boolean, signal?: AbortSignal): Promise<ClassUsersDocument> {
  return fetchCollection<ClassUserAttributes>('class-users', classUsersQuery(expired), signal);
}

export const classUsersQueryOptions = (expired: boolean) =>
  queryOptions({
    queryKey: homeKeys.classUsers(expired),
    // Offline, the copy kept on the device for the signed-in user (a cold start, issue 12).
    queryFn: ({ signal }) =>
      withKeptCopy(currentUserId(), `class-users:${expired ? 'past' : 'active'}`, () =>
        getClassUsers(expired, signal),
      ),
    // Run even when the browser says offline (the query cache would pause): the kept copy answers.
    networkMode: 'always',
    // SPEC §9: the dashboard's classes refresh every 20 s (only while the page is visible).
    refetchInterval: DASHBOARD_REFRESH_MS,
  });

export function useClassUsers(expired: boolean) {
  return useQuery(classUsersQueryOptions(expired));
}
