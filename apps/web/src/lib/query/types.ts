import type { QueryKey } from './keys';

export type { QueryKey };
export type NetworkMode = 'online' | 'always' | 'offlineFirst';
/** true: retry for ever; a number: that many retries; a function: asked after each failure. */
export type Retry = boolean | number | ((failureCount: number, error: Error) => boolean);

export interface QueryFunctionContext<TKey extends QueryKey = QueryKey> {
  queryKey: TKey;
  signal: AbortSignal;
  meta: Record<string, unknown> | undefined;
}

export interface QueryOptions<TData = unknown, TKey extends QueryKey = QueryKey> {
  queryKey: TKey;
  queryFn?: (context: QueryFunctionContext<TKey>) => TData | Promise<TData>;
  /** false: the query never asks by itself (its data, if any, is still shown). */
  enabled?: boolean;
  /** How long an answer is taken as current (ms); Infinity: until invalidated. Default 0. */
  staleTime?: number;
  /** How long an entry nobody shows is kept (ms). Default 5 minutes. */
  gcTime?: number;
  retry?: Retry;
  retryDelay?: number | ((failureCount: number, error: Error) => number);
  /** 'online' (default) waits for the browser to be online; 'always' asks regardless. */
  networkMode?: NetworkMode;
  /** Asks again every so many ms while the page is visible. */
  refetchInterval?: number | false;
  refetchOnMount?: boolean | 'always';
  refetchOnWindowFocus?: boolean | 'always';
  refetchOnReconnect?: boolean | 'always';
  /** Shown while the entry has no data yet; a function gets what this hook showed before. */
  placeholderData?:
    NoInfer<TData> | ((previousData: NoInfer<TData> | undefined) => NoInfer<TData> | undefined);
  meta?: Record<string, unknown>;
  /** Keep unchanged parts of a new answer as the same objects (default true). */
  structuralSharing?: boolean;
}

export interface QueryState<TData = unknown> {
  data: TData | undefined;
  dataUpdatedAt: number;
  error: Error | null;
  errorUpdatedAt: number;
  failureCount: number;
  status: 'pending' | 'error' | 'success';
  fetchStatus: 'fetching' | 'paused' | 'idle';
  isInvalidated: boolean;
}

interface ResultBase<TData> {
  dataUpdatedAt: number;
  errorUpdatedAt: number;
  failureCount: number;
  fetchStatus: QueryState['fetchStatus'];
  isFetching: boolean;
  isPaused: boolean;
  isLoading: boolean;
  isPlaceholderData: boolean;
  isStale: boolean;
  refetch: () => Promise<QueryResult<TData>>;
}
export type QueryResult<TData = unknown> = ResultBase<TData> &
  (
    | { status: 'pending'; isPending: true; isSuccess: false; isError: false; data: undefined; error: null }
    | {
        status: 'error';
        isPending: false;
        isSuccess: false;
        isError: true;
        data: TData | undefined;
        error: Error;
      }
    | { status: 'success'; isPending: false; isSuccess: true; isError: false; data: TData; error: null }
  );

export interface MutationOptions<TData = unknown, TVariables = void, TContext = unknown> {
  mutationFn?: (variables: TVariables) => Promise<TData>;
  onMutate?: (variables: TVariables) => TContext | Promise<TContext>;
  onSuccess?: (data: TData, variables: TVariables, context: TContext | undefined) => unknown;
  onError?: (error: Error, variables: TVariables, context: TContext | undefined) => unknown;
  onSettled?: (
    data: TData | undefined,
    error: Error | null,
    variables: TVariables,
    context: TContext | undefined,
  ) => unknown;
  retry?: Retry;
  retryDelay?: QueryOptions['retryDelay'];
  networkMode?: NetworkMode;
}

/** What one call of `mutate` may add; called only if the hook is still on screen and that call is the latest. */
export type MutateCallbacks<TData, TVariables, TContext> = Pick<
  MutationOptions<TData, TVariables, TContext>,
  'onSuccess' | 'onError' | 'onSettled'
>;

interface MutationBase<TData, TVariables, TContext> {
  mutate: (variables: TVariables, callbacks?: MutateCallbacks<TData, TVariables, TContext>) => void;
  mutateAsync: (
    variables: TVariables,
    callbacks?: MutateCallbacks<TData, TVariables, TContext>,
  ) => Promise<TData>;
  reset: () => void;
  isPaused: boolean;
  failureCount: number;
  submittedAt: number;
}
export type MutationResult<TData = unknown, TVariables = void, TContext = unknown> = MutationBase<
  TData,
  TVariables,
  TContext
> &
  (
    | {
        status: 'idle';
        isIdle: true;
        isPending: false;
        isSuccess: false;
        isError: false;
        data: undefined;
        error: null;
        variables: undefined;
      }
    | {
        status: 'pending';
        isIdle: false;
        isPending: true;
        isSuccess: false;
        isError: false;
        data: undefined;
        error: null;
        variables: TVariables;
      }
    | {
        status: 'error';
        isIdle: false;
        isPending: false;
        isSuccess: false;
        isError: true;
        data: undefined;
        error: Error;
        variables: TVariables;
      }
    | {
        status: 'success';
        isIdle: false;
        isPending: false;
        isSuccess: true;
        isError: false;
        data: TData;
        error: null;
        variables: TVariables;
      }
  );

export interface DefaultOptions {
  queries?: Omit<QueryOptions, 'queryKey'>;
  mutations?: Omit<MutationOptions<unknown, unknown, unknown>, 'mutationFn'>;
}
