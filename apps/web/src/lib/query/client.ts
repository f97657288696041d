import { hashKey, partialMatchKey, replaceEqualDeep, type QueryKey } from './keys';
import { runWithRetry } from './retryer';
import type { DefaultOptions, MutationOptions, QueryOptions, QueryState } from './types';

const FIVE_MINUTES = 5 * 60_000;
const noop = () => undefined;

/** What a query entry needs from the hooks that show it. */
export interface QueryWatcher {
  enabled(): boolean;
  notify(): void;
}

/** One cache entry: the answer for one key, the request under way, and who shows it. */
export class Query<TData = unknown> {
  state: QueryState<TData> = {
    data: undefined,
    dataUpdatedAt: 0,
    error: null,
    errorUpdatedAt: 0,
    failureCount: 0,
    status: 'pending',
    fetchStatus: 'idle',
    isInvalidated: false,
  };
  readonly watchers = new Set<QueryWatcher>();
  private promise: Promise<TData> | null = null;
  /** The state before the request under way, for a request given up (see unwatch). */
  private before: QueryState<TData> | null = null;
  private controller: AbortController | null = null;
  private gcTime = 0;
  private gcTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly client: QueryClient,
    readonly queryKey: QueryKey,
    readonly queryHash: string,
    public options: QueryOptions<TData>,
  ) {
    this.scheduleGc();
  }

  setState(patch: Partial<QueryState<TData>>): void {
    this.state = { ...this.state, ...patch };
    for (const watcher of [...this.watchers]) watcher.notify();
  }

  /** No data, invalidated, or older than `staleTime` (Infinity: only when invalidated). */
  isStale(staleTime = 0): boolean {
    const { data, dataUpdatedAt, isInvalidated } = this.state;
    return data === undefined || isInvalidated || Date.now() >= dataUpdatedAt + staleTime;
  }

  isActive(): boolean {
    return [...this.watchers].some((watcher) => watcher.enabled());
  }

  setData(data: TData, manual = false): void {
    this.setState({
      data: this.options.structuralSharing === false ? data : replaceEqualDeep(this.state.data, data),
      dataUpdatedAt: Date.now(),
      error: null,
      status: 'success',
      isInvalidated: false,
      ...(manual ? {} : { fetchStatus: 'idle' as const, failureCount: 0 }),
    });
  }

  /**
   * Asks the query function, or joins the request under way. `cancelRefetch` replaces a request
   * under way on an entry that has data (an invalidation wants an answer from now, not from then):
   * the old request is aborted and whoever waited on it gets the new one's answer.
   */
  fetch(options?: QueryOptions<TData>, cancelRefetch = false): Promise<TData> {
    if (options) this.options = options;
    if (this.promise) {
      if (!cancelRefetch || this.state.data === undefined) return this.promise;
      this.controller?.abort();
    }
    const { queryFn, meta, retry, retryDelay, networkMode } = this.options;
    const controller = new AbortController();
    this.controller = controller;
    const current = () => this.controller === controller;
    this.before = this.state;
    this.setState({
      fetchStatus: 'fetching',
      failureCount: 0,
      ...(this.state.dataUpdatedAt ? {} : { error: null, status: 'pending' as const }),
    });
    const run = runWithRetry(
      () => {
        if (!queryFn) throw new Error(`No query function for ${this.queryHash}`);
        return queryFn({ queryKey: this.queryKey, signal: controller.signal, meta });
      },
      {
        retry: retry ?? 3,
        retryDelay,
        networkMode,
        signal: controller.signal,
        onFail: (failureCount) => current() && this.setState({ failureCount }),
        onPause: (paused) => current() && this.setState({ fetchStatus: paused ? 'paused' : 'fetching' }),
      },
    );
    const settle = () => {
      this.promise = this.controller = null;
      if (!this.watchers.size) this.scheduleGc();
    };
    const promise = run.then(
      (data) => {
        // Replaced by a newer request: its answer is the one that counts.
        if (!current()) return this.promise ?? data;
        settle();
        this.setData(data);
        return data;
      },
      (error: Error) => {
        if (!current()) {
          if (this.promise) return this.promise;
          throw error;
        }
        settle();
        this.setState({
          status: 'error',
          error,
          errorUpdatedAt: Date.now(),
          fetchStatus: 'idle',
          failureCount: this.state.failureCount + 1,
        });
        throw error;
      },
    );
    this.promise = promise;
    return promise;
  }

  /** Aborts the request under way (its callers get the abort error); `revert`: as if it never started. */
  cancel(revert = false): void {
    if (!this.promise) return;
    this.controller?.abort();
    this.promise = this.controller = null;
    this.setState(revert && this.before ? { ...this.before, fetchStatus: 'idle' } : { fetchStatus: 'idle' });
  }

  watch(watcher: QueryWatcher): void {
    this.watchers.add(watcher);
    clearTimeout(this.gcTimer);
  }

  /**
   * The last hook showing this entry has gone (unmounted, or moved to another key): a request
   * under way is given up, as TanStack Query does for a query function that takes the signal
   * (all of ours): an offline page's read waiting for the network must not be sent when it
   * comes back, after the page has moved on.
   */
  unwatch(watcher: QueryWatcher): void {
    this.watchers.delete(watcher);
    if (this.watchers.size) return;
    this.cancel(true);
    this.scheduleGc();
  }

  /** Forgotten `gcTime` after the last hook showing it has gone (the longest any asked for). */
  private scheduleGc(): void {
    clearTimeout(this.gcTimer);
    this.gcTime = Math.max(this.gcTime, this.options.gcTime ?? FIVE_MINUTES);
    if (this.gcTime === Infinity) return;
    this.gcTimer = setTimeout(() => {
      if (!this.watchers.size && !this.promise) this.client.remove(this as unknown as Query<unknown>);
    }, this.gcTime);
  }
}

export interface QueryFilters {
  /** Every entry whose key starts with this one (objects compared by their own properties). */
  queryKey?: QueryKey;
  exact?: boolean;
  /** Which of the invalidated entries ask again at once: those on screen (default), all or none. */
  refetchType?: 'active' | 'all' | 'none';
}

/**
 * The app's server state: answers kept by query key, shared by every hook that shows them
 * (decision 0034, in place of TanStack Query with the same names and rules).
 */
export class QueryClient {
  private readonly queries = new Map<string, Query<unknown>>();

  constructor(private readonly config: { defaultOptions?: DefaultOptions } = {}) {}

  defaultQueryOptions<TData>(options: QueryOptions<TData>): QueryOptions<TData> {
    return { ...(this.config.defaultOptions?.queries as Partial<QueryOptions<TData>>), ...options };
  }

  defaultMutationOptions<TData, TVariables, TContext>(
    options: MutationOptions<TData, TVariables, TContext>,
  ): MutationOptions<TData, TVariables, TContext> {
    return {
      ...(this.config.defaultOptions?.mutations as MutationOptions<TData, TVariables, TContext>),
      ...options,
    };
  }

  /** The entry for these options' key, made if there is none. */
  build<TData>(options: QueryOptions<TData>): Query<TData> {
    const hash = hashKey(options.queryKey);
    let query = this.queries.get(hash) as Query<TData> | undefined;
    if (!query) {
      query = new Query(this, options.queryKey, hash, options);
      this.queries.set(hash, query as Query<unknown>);
    }
    return query;
  }

  remove(query: Query<unknown>): void {
    if (this.queries.get(query.queryHash) !== query) return;
    query.cancel();
    this.queries.delete(query.queryHash);
  }

  private findAll({ queryKey, exact }: QueryFilters = {}): Query<unknown>[] {
    const hash = exact && queryKey ? hashKey(queryKey) : null;
    return [...this.queries.values()].filter((query) =>
      hash !== null ? query.queryHash === hash : !queryKey || partialMatchKey(query.queryKey, queryKey),
    );
  }

  getQueryData<TData = unknown>(queryKey: QueryKey): TData | undefined {
    return this.queries.get(hashKey(queryKey))?.state.data as TData | undefined;
  }

  getQueryState<TData = unknown>(queryKey: QueryKey): QueryState<TData> | undefined {
    return this.queries.get(hashKey(queryKey))?.state as QueryState<TData> | undefined;
  }

  /** Puts an answer in the cache as if it had been fetched now (a function gets the current one). */
  setQueryData<TData>(
    queryKey: QueryKey,
    updater: TData | undefined | ((previous: TData | undefined) => TData | undefined),
  ): TData | undefined {
    const query = this.build(this.defaultQueryOptions<TData>({ queryKey }));
    const data =
      typeof updater === 'function'
        ? (updater as (previous: TData | undefined) => TData | undefined)(query.state.data)
        : updater;
    if (data !== undefined) query.setData(data, true);
    return data;
  }

  /** The answer for these options: the cached one while fresh, else a new request (no retry unless asked). */
  fetchQuery<TData, TKey extends QueryKey = QueryKey>(options: QueryOptions<TData, TKey>): Promise<TData> {
    const defaulted = this.defaultQueryOptions(options as unknown as QueryOptions<TData>);
    defaulted.retry ??= false;
    const query = this.build(defaulted);
    return query.isStale(defaulted.staleTime)
      ? query.fetch(defaulted)
      : Promise.resolve(query.state.data as TData);
  }

  /** fetchQuery that never fails: to fill the cache before a screen shows. */
  prefetchQuery<TData, TKey extends QueryKey = QueryKey>(options: QueryOptions<TData, TKey>): Promise<void> {
    return this.fetchQuery(options).then(noop, noop);
  }

  /**
   * Marks the matching entries stale, so the next hook that shows one asks again, and asks again
   * at once for those on screen. Resolves when those requests have ended (failures included).
   */
  invalidateQueries(filters: QueryFilters = {}): Promise<void> {
    const queries = this.findAll(filters);
    for (const query of queries) query.setState({ isInvalidated: true });
    const type = filters.refetchType ?? 'active';
    if (type === 'none') return Promise.resolve();
    return Promise.all(
      queries
        .filter((query) => type === 'all' || query.isActive())
        .map((query) => query.fetch(undefined, true).catch(noop)),
    ).then(noop);
  }

  removeQueries(filters: QueryFilters = {}): void {
    for (const query of this.findAll(filters)) this.remove(query);
  }

  /** Forgets everything (a sign-out: the next learner on this device must not see it). */
  clear(): void {
    for (const query of [...this.queries.values()]) this.remove(query);
  }
}
