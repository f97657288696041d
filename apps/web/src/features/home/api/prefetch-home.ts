import type { QueryClient } from '@tanstack/react-query';
import { classUsersQueryOptions } from './get-class-users';
import { lessonsQueryOptions } from './get-lessons';

/**
 * The home's two reads, put in the query cache by its route's loader before its first render
 * (decisions 0030, 0060): the home then renders with its classes at once instead of rendering a
 * spinner and again as each read answers. The reads themselves may have been started by
 * index.html (decision 0024) and are taken from there by the API client. `search` is the page's
 * query: the period filter chooses which memberships the home lists (HomePage's `readFilters`).
 * A failed read throws: the loader leaves it to the screen (browser) or refuses the page (server).
 */
export function loadHomeReads(client: QueryClient, userId: string, search: string): Promise<unknown> {
  const past = new URLSearchParams(search).get('period') === 'past';
  return Promise.all([
    client.ensureQueryData({ ...classUsersQueryOptions(past), revalidateIfStale: true }),
    client.ensureQueryData({ ...lessonsQueryOptions(userId), revalidateIfStale: true }),
  ]);
}
