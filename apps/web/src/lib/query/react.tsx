import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { QueryClient } from './client';
import { MutationObserver } from './mutation';
import { QueryObserver } from './observer';
import type { MutationOptions, MutationResult, QueryOptions, QueryResult, QueryKey } from './types';

const ClientContext = createContext<QueryClient | undefined>(undefined);

export function QueryClientProvider({ client, children }: { client: QueryClient; children?: ReactNode }) {
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
}

export function useQueryClient(client?: QueryClient): QueryClient {
  const provided = useContext(ClientContext);
  const found = client ?? provided;
  if (!found) throw new Error('No QueryClient set, use QueryClientProvider to set one');
  return found;
}

/** The entry for `options.queryKey`: its data and state, fetched as the options say. */
export function useQuery<TData, TKey extends QueryKey = QueryKey>(
  options: QueryOptions<TData, TKey>,
  client?: QueryClient,
): QueryResult<TData> {
  const queryClient = useQueryClient(client);
  const [observer] = useState(() => new QueryObserver<TData>(queryClient));
  observer.setOptions(options as unknown as QueryOptions<TData>);
  const result = useSyncExternalStore(observer.subscribe, observer.getSnapshot, observer.getSnapshot);
  // After every commit: a new key, `enabled` or interval takes effect (cheap when nothing moved).
  useEffect(() => observer.sync());
  return result;
}

/** A write: `mutate` runs `mutationFn` (retries and callbacks as the options say) and tracks its state. */
export function useMutation<TData = unknown, TVariables = void, TContext = unknown>(
  options: MutationOptions<TData, TVariables, TContext>,
  client?: QueryClient,
): MutationResult<TData, TVariables, TContext> {
  const queryClient = useQueryClient(client);
  const [observer] = useState(() => new MutationObserver<TData, TVariables, TContext>(queryClient));
  observer.setOptions(options);
  return useSyncExternalStore(observer.subscribe, observer.getSnapshot, observer.getSnapshot);
}
