import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  QueryClientProvider,
  keepPreviousData,
  onlineManager,
  useQuery,
  type QueryFunctionContext,
  type QueryOptions,
} from '.';
import { newClient, renderQuery, deferred, hanging, signalOf, byKey, advance } from './query-test-utils';

describe('useQuery', () => {
  // Fake time everywhere here: retries, intervals, staleness and garbage collection move only
  // when a test says so, and `advance` proves a request did not start.
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('is pending, then gives the answer', async () => {
    const client = newClient();
    const { result } = renderQuery(client, { queryKey: ['lessons'], queryFn: async () => ['a', 'b'] });
    expect(result.current).toMatchObject({
      status: 'pending',
      isPending: true,
      isLoading: true,
      fetchStatus: 'fetching',
      data: undefined,
    });
    await advance();
    expect(result.current).toMatchObject({
      status: 'success',
      isSuccess: true,
      isLoading: false,
      fetchStatus: 'idle',
      data: ['a', 'b'],
      error: null,
    });
    expect(client.getQueryData(['lessons'])).toEqual(['a', 'b']);
  });

  it('gives the query function its key, an abort signal and the meta', async () => {
    const client = newClient();
    const queryFn = vi.fn(async (_context: QueryFunctionContext) => 'x');
    renderQuery(client, { queryKey: ['lesson', { id: 1 }], queryFn, meta: { why: 'test' } });
    await advance();
    expect(queryFn).toHaveBeenCalledWith({
      queryKey: ['lesson', { id: 1 }],
      signal: expect.any(AbortSignal),
      meta: { why: 'test' },
    });
  });

  it('makes one request for two components showing the same key', async () => {
    const client = newClient();
    const queryFn = vi.fn(async () => 'Fractions');
    function Title({ label }: { label: string }) {
      const { data } = useQuery({ queryKey: ['lesson', 1], queryFn });
      return <p>{`${label}: ${data ?? '…'}`}</p>;
    }
    render(
      <QueryClientProvider client={client}>
        <Title label="header" />
        <Title label="card" />
      </QueryClientProvider>,
    );
    await advance();
    expect(screen.getByText('header: Fractions')).toBeInTheDocument();
    expect(screen.getByText('card: Fractions')).toBeInTheDocument();
    expect(queryFn).toHaveBeenCalledOnce();
  });

  it.each<[string, QueryOptions['refetchOnMount'], number, number]>([
    // why, refetchOnMount, ms after the first answer, requests in all
    ['within staleTime: no request', undefined, 999, 1],
    ['after staleTime: asks again', undefined, 1000, 2],
    ['refetchOnMount false: never asks again', false, 5000, 1],
    ["refetchOnMount 'always': asks again even when fresh", 'always', 0, 2],
  ])('a second mount %s', async (_why, refetchOnMount, after, requests) => {
    const client = newClient();
    const queryFn = vi.fn(async () => 'x');
    const options = { queryKey: ['a'], queryFn, staleTime: 1000, refetchOnMount };
    const first = renderQuery(client, options);
    await advance();
    first.unmount();
    expect(queryFn).toHaveBeenCalledOnce();
    await advance(after);
    const { result } = renderQuery(client, options);
    // The cached answer shows at once, whether or not it is asked again.
    expect(result.current.data).toBe('x');
    await advance();
    expect(queryFn).toHaveBeenCalledTimes(requests);
  });

  it('never asks while disabled, and asks once enabled', async () => {
    const client = newClient();
    const queryFn = vi.fn(async () => 'x');
    const { result, rerender } = renderQuery(client, { queryKey: ['a'], queryFn, enabled: false });
    await advance(60_000);
    expect(queryFn).not.toHaveBeenCalled();
    expect(result.current).toMatchObject({
      status: 'pending',
      isPending: true,
      fetchStatus: 'idle',
      isLoading: false,
    });
    rerender({ queryKey: ['a'], queryFn, enabled: true });
    await advance();
    expect(queryFn).toHaveBeenCalledOnce();
    expect(result.current.data).toBe('x');
  });

  it('shows the entry of a new key, and the cached one when the key comes back', async () => {
    const client = newClient();
    const queryFn = vi.fn(byKey);
    const { result, rerender } = renderQuery(client, {
      queryKey: ['lesson', 1],
      queryFn,
      staleTime: Infinity,
    });
    await advance();
    expect(result.current.data).toBe('lesson/1');
    rerender({ queryKey: ['lesson', 2], queryFn, staleTime: Infinity });
    expect(result.current).toMatchObject({ status: 'pending', data: undefined, isPlaceholderData: false });
    await advance();
    expect(result.current.data).toBe('lesson/2');
    rerender({ queryKey: ['lesson', 1], queryFn, staleTime: Infinity });
    expect(result.current).toMatchObject({ status: 'success', data: 'lesson/1' });
    await advance();
    expect(queryFn).toHaveBeenCalledTimes(2);
  });

  it('with keepPreviousData, shows the previous key’s data as a placeholder until the new answer', async () => {
    const client = newClient();
    const second = deferred<string>();
    const queryFn = vi.fn((context: QueryFunctionContext) =>
      context.queryKey[1] === 1 ? Promise.resolve('page 1') : second.promise,
    );
    const options = (page: number) => ({
      queryKey: ['list', page],
      queryFn,
      placeholderData: keepPreviousData,
    });
    const { result, rerender } = renderQuery(client, options(1));
    await advance();
    expect(result.current).toMatchObject({ data: 'page 1', isPlaceholderData: false });
    rerender(options(2));
    await advance();
    expect(result.current).toMatchObject({
      status: 'success',
      data: 'page 1',
      isPlaceholderData: true,
      isFetching: true,
    });
    // The placeholder is the hook's, never the cache's.
    expect(client.getQueryData(['list', 2])).toBeUndefined();
    second.resolve('page 2');
    await advance();
    expect(result.current).toMatchObject({ status: 'success', data: 'page 2', isPlaceholderData: false });
  });

  it('shows a placeholder value while pending, never after an error', async () => {
    const client = newClient();
    const failure = deferred<string>();
    const { result } = renderQuery(client, {
      queryKey: ['a'],
      queryFn: () => failure.promise,
      placeholderData: 'placeholder',
      retry: false,
    });
    expect(result.current).toMatchObject({ status: 'success', data: 'placeholder', isPlaceholderData: true });
    failure.reject(new Error('no'));
    await advance();
    expect(result.current).toMatchObject({ status: 'error', data: undefined, isPlaceholderData: false });
  });

  it('makes 3 attempts with retry: 2, waiting 1 s then 2 s, then shows the error', async () => {
    const client = newClient();
    const error = new Error('server down');
    const queryFn = vi.fn(() => Promise.reject(error));
    const { result } = renderQuery(client, { queryKey: ['a'], queryFn, retry: 2 });
    await advance();
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(result.current).toMatchObject({ status: 'pending', fetchStatus: 'fetching', failureCount: 1 });
    await advance(999);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await advance(1);
    expect(queryFn).toHaveBeenCalledTimes(2);
    expect(result.current.failureCount).toBe(2);
    await advance(1999);
    expect(queryFn).toHaveBeenCalledTimes(2);
    expect(result.current.status).toBe('pending');
    await advance(1);
    expect(queryFn).toHaveBeenCalledTimes(3);
    expect(result.current).toMatchObject({
      status: 'error',
      isError: true,
      error,
      data: undefined,
      failureCount: 3,
      fetchStatus: 'idle',
    });
    await advance(60_000);
    expect(queryFn).toHaveBeenCalledTimes(3);
  });

  it('asks a retry function with the failures before this one (from 0) and the error', async () => {
    const client = newClient();
    const error = new Error('server down');
    const queryFn = vi.fn(() => Promise.reject(error));
    const retry = vi.fn((failureCount: number, _error: Error) => failureCount < 2);
    const { result } = renderQuery(client, { queryKey: ['a'], queryFn, retry, retryDelay: 10 });
    await advance(100);
    expect(retry.mock.calls).toEqual([
      [0, error],
      [1, error],
      [2, error],
    ]);
    expect(queryFn).toHaveBeenCalledTimes(3);
    expect(result.current).toMatchObject({ status: 'error', failureCount: 3 });
  });

  it('clears the failure count when a retry succeeds', async () => {
    const client = newClient();
    const queryFn = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('flaky'))
      .mockResolvedValue('x');
    const { result } = renderQuery(client, { queryKey: ['a'], queryFn });
    await advance();
    expect(result.current).toMatchObject({ status: 'pending', failureCount: 1 });
    await advance(1000);
    expect(result.current).toMatchObject({ status: 'success', data: 'x', failureCount: 0, error: null });
  });

  it('fails at once with retry: false', async () => {
    const client = newClient();
    const queryFn = vi.fn(() => Promise.reject(new Error('no')));
    const { result } = renderQuery(client, { queryKey: ['a'], queryFn, retry: false });
    await advance();
    expect(queryFn).toHaveBeenCalledOnce();
    expect(result.current).toMatchObject({ status: 'error', failureCount: 1, fetchStatus: 'idle' });
  });

  it('keeps the data of a failed refetch, with status error', async () => {
    const client = newClient();
    const error = new Error('offline server');
    const queryFn = vi.fn<() => Promise<string>>().mockResolvedValueOnce('v1').mockRejectedValueOnce(error);
    const { result } = renderQuery(client, { queryKey: ['a'], queryFn, retry: false });
    await advance();
    expect(result.current.data).toBe('v1');
    await act(() => result.current.refetch());
    expect(result.current).toMatchObject({
      status: 'error',
      isError: true,
      error,
      data: 'v1',
      fetchStatus: 'idle',
    });
  });

  describe('network mode', () => {
    it("'online' waits, paused, for the browser to be online", async () => {
      const client = newClient();
      const queryFn = vi.fn(async () => 'x');
      onlineManager.setOnline(false);
      const { result } = renderQuery(client, { queryKey: ['a'], queryFn });
      await advance(60_000);
      expect(queryFn).not.toHaveBeenCalled();
      expect(result.current).toMatchObject({ status: 'pending', fetchStatus: 'paused', isPaused: true });
      act(() => onlineManager.setOnline(true));
      await advance();
      expect(queryFn).toHaveBeenCalledOnce();
      expect(result.current).toMatchObject({
        status: 'success',
        data: 'x',
        fetchStatus: 'idle',
        isPaused: false,
      });
    });

    it("'always' asks while offline", async () => {
      const client = newClient();
      const queryFn = vi.fn(async () => 'x');
      onlineManager.setOnline(false);
      const { result } = renderQuery(client, { queryKey: ['a'], queryFn, networkMode: 'always' });
      await advance();
      expect(queryFn).toHaveBeenCalledOnce();
      expect(result.current.data).toBe('x');
    });

    it("'offlineFirst' makes its first attempt offline, then waits to retry", async () => {
      const client = newClient();
      const queryFn = vi
        .fn<() => Promise<string>>()
        .mockRejectedValueOnce(new Error('no network'))
        .mockResolvedValue('x');
      onlineManager.setOnline(false);
      const { result } = renderQuery(client, {
        queryKey: ['a'],
        queryFn,
        networkMode: 'offlineFirst',
        retryDelay: 0,
      });
      await advance(60_000);
      expect(queryFn).toHaveBeenCalledOnce();
      expect(result.current).toMatchObject({ status: 'pending', fetchStatus: 'paused', failureCount: 1 });
      act(() => onlineManager.setOnline(true));
      await advance();
      expect(queryFn).toHaveBeenCalledTimes(2);
      expect(result.current).toMatchObject({ status: 'success', data: 'x' });
    });
  });

  describe('when the last hook goes', () => {
    it('aborts the request under way and reverts the entry', async () => {
      const client = newClient();
      const queryFn = vi.fn(hanging);
      const { unmount } = renderQuery(client, { queryKey: ['a'], queryFn });
      await advance();
      const signal = signalOf(queryFn, 0);
      expect(signal.aborted).toBe(false);
      unmount();
      expect(signal.aborted).toBe(true);
      await advance();
      expect(client.getQueryState(['a'])).toMatchObject({
        data: undefined,
        status: 'pending',
        fetchStatus: 'idle',
        error: null,
      });
    });

    it('reverts a refetch to the data it had', async () => {
      const client = newClient();
      let calls = 0;
      const queryFn = vi.fn((context: QueryFunctionContext) =>
        ++calls === 1 ? Promise.resolve('v1') : hanging(context),
      );
      const { result, unmount } = renderQuery(client, { queryKey: ['a'], queryFn });
      await advance();
      void act(() => void result.current.refetch());
      await advance();
      expect(client.getQueryState(['a'])?.fetchStatus).toBe('fetching');
      unmount();
      await advance();
      expect(client.getQueryState(['a'])).toMatchObject({
        data: 'v1',
        status: 'success',
        fetchStatus: 'idle',
      });
    });

    it('keeps the request while another hook shows the entry', async () => {
      const client = newClient();
      const queryFn = vi.fn(hanging);
      const options = { queryKey: ['a'], queryFn };
      const first = renderQuery(client, options);
      renderQuery(client, options);
      await advance();
      first.unmount();
      expect(queryFn).toHaveBeenCalledOnce();
      expect(signalOf(queryFn, 0).aborted).toBe(false);
      expect(client.getQueryState(['a'])?.fetchStatus).toBe('fetching');
    });

    it('never sends a paused request once back online', async () => {
      const client = newClient();
      const queryFn = vi.fn(async () => 'x');
      onlineManager.setOnline(false);
      const { result, unmount } = renderQuery(client, { queryKey: ['a'], queryFn });
      await advance();
      expect(result.current.fetchStatus).toBe('paused');
      unmount();
      act(() => onlineManager.setOnline(true));
      await advance(60_000);
      expect(queryFn).not.toHaveBeenCalled();
      expect(client.getQueryState(['a'])).toMatchObject({ status: 'pending', fetchStatus: 'idle' });
    });
  });
});
