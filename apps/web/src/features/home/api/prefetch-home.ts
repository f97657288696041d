import type { QueryClient } from '@tanstack/react-query';
import { classUsersQueryOptions } from './get-class-users';
import { lessonsQueryOptions } from './get-lessons';

/**
 * The home's two reads, put in the query cache before the home's first render (issue 11,
 * decision 0030): the home then renders with its classes at once instead of rendering a
 * spinner and again as each read answers. The reads themselves were started by index.html
 * (decision 0024) and are taken from there by the API client. `search` is the page's query: the
 * period filter chooses which memberships the home lists (HomePage's `readFilters`).
 */
export function prefetchHomeReads(client: QueryClient, userId: string, search: string): Promise<unknown> {
  const past = new URLSearchParams(search).get('period') === 'past';
  return Promise.all([
    client.prefetchQuery(classUsersQueryOptions(past)),
    client.prefetchQuery(lessonsQueryOptions(userId)),
  ]);
}
