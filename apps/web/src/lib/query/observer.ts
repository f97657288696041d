import type { Query, QueryClient, QueryWatcher } from './client';
import { focusManager, onlineManager } from './managers';
import type { QueryOptions, QueryResult } from './types';

const noop = () => undefined;

/**
 * What one `useQuery` shows: its entry (which changes with the key), fetched on mount when
 * missing or stale, again every `refetchInterval` while the page is visible, on reconnection and
 * on a return to the page as the options say. Results are kept until the entry changes, so a
 * store subscription re-renders only for news.
 */
export class QueryObserver<TData> implements QueryWatcher {
  options!: QueryOptions<TData>;
  query!: Query<TData>;
  private readonly listeners = new Set<() => void>();
  private watched: Query<TData> | null = null;
  private lastWithData: Query<TData> | null = null;
  private result: QueryResult<TData> | null = null;
  private resultOf: [unknown, unknown, unknown] = [null, null, null];
  private timer: ReturnType<typeof setInterval> | undefined;
  private timerOf = '';
  private wasEnabled = false;
  private stops: (() => void)[] = [];

  constructor(private readonly client: QueryClient) {}

  /** During render: the options and entry this render shows (no request starts here). */
  setOptions(options: QueryOptions<TData>): void {
    this.options = this.client.defaultQueryOptions(options);
    this.query = this.client.build(this.options);
    // The entry asks with the options of the hooks that show it (an invalidation fetches without
    // options), even one filled by setQueryData that this hook never had to ask for.
    this.query.options = this.options;
  }

  enabled(): boolean {
    return this.options.enabled !== false;
  }

  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private fetch(): void {
    this.query.fetch(this.options).catch(noop);
  }

  /** Whether an event whose option is `when` (refetchOnReconnect, …) asks again: stale data only, unless 'always'. */
  private shouldFetch(when: boolean | 'always' | undefined): boolean {
    return (
      this.enabled() && (when === 'always' || (when !== false && this.query.isStale(this.options.staleTime)))
    );
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      this.stops = [
        onlineManager.subscribe((online) => {
          if (online && this.shouldFetch(this.options.refetchOnReconnect)) this.fetch();
        }),
        focusManager.subscribe((visible) => {
          if (visible && this.shouldFetch(this.options.refetchOnWindowFocus)) this.fetch();
        }),
      ];
      this.sync();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size) return;
      for (const stop of this.stops) stop();
      this.watched?.unwatch(this);
      this.watched = null;
      this.setTimer(false);
    };
  };

  /**
   * After each commit: watch the entry the render showed (a new key: the old entry may be
   * forgotten), fetch if it is new to this hook or was just enabled, and keep the interval as the
   * options say.
   */
  sync(): void {
    if (!this.listeners.size) return;
    const enabled = this.enabled();
    // The entry built at render may have been forgotten since: with gcTime 0 its timer can fire
    // before this effect (Preact runs effects after the next frame), and a hook must never fetch
    // into an entry the cache no longer holds (the next render would build, and fetch, another).
    this.query = this.client.build(this.options);
    if (this.watched !== this.query) {
      this.watched?.unwatch(this);
      this.watched = this.query;
      this.query.watch(this);
      // An entry without data is always asked for; one with data as refetchOnMount says.
      if (this.shouldFetch(this.query.state.data === undefined || this.options.refetchOnMount)) this.fetch();
      // The entry may have moved between the render and now.
      this.notify();
    } else if (enabled && !this.wasEnabled && this.shouldFetch(true)) this.fetch();
    this.wasEnabled = enabled;
    this.setTimer(enabled);
  }

  private setTimer(enabled: boolean): void {
    const every = this.options.refetchInterval;
    const key = enabled && typeof every === 'number' && every > 0 ? `${this.query.queryHash}|${every}` : '';
    if (key === this.timerOf) return;
    clearInterval(this.timer);
    this.timerOf = key;
    if (key)
      this.timer = setInterval(() => {
        if (focusManager.get()) this.fetch();
      }, every as number);
  }

  refetch = (): Promise<QueryResult<TData>> =>
    this.query
      .fetch(this.options, true)
      .catch(noop)
      .then(() => this.getSnapshot());

  getSnapshot = (): QueryResult<TData> => {
    const { query, options } = this;
    const { state } = query;
    const enabled = this.enabled();
    if (
      this.result &&
      this.resultOf[0] === state &&
      this.resultOf[1] === query &&
      this.resultOf[2] === enabled
    )
      return this.result;
    let { data, status } = state;
    let isPlaceholderData = false;
    if (data !== undefined) this.lastWithData = query;
    else if (status === 'pending' && options.placeholderData !== undefined) {
      const placeholder =
        typeof options.placeholderData === 'function'
          ? (options.placeholderData as (previous: TData | undefined) => TData | undefined)(
              this.lastWithData?.state.data,
            )
          : options.placeholderData;
      if (placeholder !== undefined) {
        data = placeholder;
        status = 'success';
        isPlaceholderData = true;
      }
    }
    const fetching = state.fetchStatus === 'fetching';
    this.resultOf = [state, query, enabled];
    this.result = {
      data,
      error: state.error,
      status,
      isPending: status === 'pending',
      isSuccess: status === 'success',
      isError: status === 'error',
      isLoading: status === 'pending' && fetching,
      isFetching: fetching,
      isPaused: state.fetchStatus === 'paused',
      isPlaceholderData,
      isStale: query.isStale(options.staleTime),
      dataUpdatedAt: state.dataUpdatedAt,
      errorUpdatedAt: state.errorUpdatedAt,
      failureCount: state.failureCount,
      fetchStatus: state.fetchStatus,
      refetch: this.refetch,
    } as QueryResult<TData>;
    return this.result;
  };
}
