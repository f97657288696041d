import { QueryClient, type QueryClientConfig } from '@tanstack/react-query';
import { createContext } from 'react';
import { subscribeSession, getSession } from './session';

/**
 * One client for the screens that use server state. Imported only by lazily loaded layouts, so
 * the query cache stays out of the /login bundle.
 */
export const QUERY_CLIENT_CONFIG: QueryClientConfig = {
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A 401 is handled by the API client (back to /login) and a 4xx will not heal by itself.
      retry: (count, error) =>
        count < 2 && !(error instanceof Error && 'status' in error && Number(error.status) < 500),
      refetchOnWindowFocus: false,
    },
  },
};

export const queryClient = new QueryClient(QUERY_CLIENT_CONFIG);

/**
 * The client of one page drawn on the server (prerender/signed-in.tsx): each request has its
 * own, so no learner's data reaches another's page. Absent in the browser, which has one client.
 */
export const ServerQueryClientContext = createContext<QueryClient | null>(null);

// Another learner may sign in next on this device: never show them the previous one's data.
subscribeSession(() => {
  if (getSession().status === 'unauthenticated') queryClient.clear();
});
