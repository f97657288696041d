import { act, renderHook } from '@testing-library/react';
import { useEffect } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  onlineManager,
  queryOptions,
  useQuery,
  type QueryFunctionContext,
  type QueryKey,
  type QueryOptions,
} from '.';
import {
  newClient,
  wrapperFor,
  renderQuery,
  deferred,
  hanging,
  signalOf,
  byKey,
  callsFor,
  advance,
  setVisibility,
} from './query-test-utils';

describe('useQuery and the cache', () => {
  // Fake time everywhere here: retries, intervals, staleness and garbage collection move only
  // when a test says so, and `advance` proves a request did not start.
  beforeEach(() => {
    vi.useFakeTimers();
  });

  describe('invalidateQueries', () => {
    it('refetches the matching entries on screen and marks the others stale', async () => {
      const client = newClient();
      const queryFn = vi.fn(byKey);
      const fresh = { queryFn, staleTime: Infinity };
      // An entry no hook shows any more.
      const gone = renderQuery(client, { queryKey: ['a', 3], ...fresh });
      await advance();
      gone.unmount();
      renderHook(
        () => [
          useQuery({ queryKey: ['a', 1], ...fresh }),
          useQuery({ queryKey: ['a', 2], ...fresh, enabled: false }),
          useQuery({ queryKey: ['b'], ...fresh }),
        ],
        { wrapper: wrapperFor(client) },
      );
      await advance();
      const counts = () => [['a', 1], ['a', 2], ['a', 3], ['b']].map((key) => callsFor(queryFn, key));
      expect(counts()).toEqual([1, 0, 1, 1]);

      await act(() => client.invalidateQueries({ queryKey: ['a'] }));
      // Only ['a', 1] has an enabled hook; ['b'] does not match.
      expect(counts()).toEqual([2, 0, 1, 1]);
      expect(client.getQueryState(['a', 1])?.isInvalidated).toBe(false);
      expect(client.getQueryState(['a', 2])?.isInvalidated).toBe(true);
      expect(client.getQueryState(['a', 3])?.isInvalidated).toBe(true);
      expect(client.getQueryState(['b'])?.isInvalidated).toBe(false);

      // Stale despite staleTime: Infinity, so the next hook asks again.
      renderQuery(client, { queryKey: ['a', 3], ...fresh });
      await advance();
      expect(counts()).toEqual([2, 0, 2, 1]);
    });

    it('resolves once the refetch has ended', async () => {
      const client = newClient();
      const second = deferred<string>();
      let calls = 0;
      const queryFn = vi.fn(() => (++calls === 1 ? Promise.resolve('first') : second.promise));
      const { result } = renderQuery(client, { queryKey: ['a'], queryFn });
      await advance();
      let done = false;
      const invalidation = client.invalidateQueries({ queryKey: ['a'] }).then(() => {
        done = true;
      });
      await advance();
      expect(done).toBe(false);
      expect(result.current).toMatchObject({ data: 'first', isFetching: true });
      second.resolve('second');
      await act(() => invalidation);
      expect(done).toBe(true);
      expect(result.current.data).toBe('second');
    });

    it('aborts a request under way on an entry with data; the new answer is the one shown', async () => {
      const client = newClient();
      const [first, second, third] = [deferred<string>(), deferred<string>(), deferred<string>()];
      const answers = [first.promise, second.promise, third.promise];
      const queryFn = vi.fn(
        (_context: QueryFunctionContext) => answers.shift() ?? Promise.reject(new Error('no more')),
      );
      const { result } = renderQuery(client, { queryKey: ['a'], queryFn });
      first.resolve('first');
      await advance();
      expect(result.current.data).toBe('first');
      // A refetch under way (an interval, a focus…), then the invalidation after a write.
      const refetch = result.current.refetch();
      await advance();
      const invalidation = client.invalidateQueries({ queryKey: ['a'] });
      await advance();
      expect(queryFn).toHaveBeenCalledTimes(3);
      const [older, newer] = [signalOf(queryFn, 1), signalOf(queryFn, 2)];
      expect(older.aborted).toBe(true);
      expect(newer.aborted).toBe(false);
      // The aborted request answers all the same (its function ignored the signal): not shown.
      second.resolve('before the write');
      await advance();
      expect(result.current.data).toBe('first');
      third.resolve('after the write');
      await act(() => invalidation);
      expect(result.current.data).toBe('after the write');
      // Whoever waited on the aborted request gets the new answer.
      expect((await refetch).data).toBe('after the write');
    });

    it('refetches an entry first filled by setQueryData with the query function of its hook', async () => {
      const client = newClient();
      client.setQueryData(['me'], 'seeded');
      const queryFn = vi.fn(async () => 'fetched');
      const { result } = renderQuery(client, { queryKey: ['me'], queryFn, staleTime: 30_000 });
      await advance();
      expect(result.current.data).toBe('seeded');
      expect(queryFn).not.toHaveBeenCalled();
      // Not awaited in act: if it were stuck retrying, the test would fail rather than hang.
      void client.invalidateQueries({ queryKey: ['me'] });
      await advance();
      expect(queryFn).toHaveBeenCalledOnce();
      expect(result.current).toMatchObject({ status: 'success', data: 'fetched' });
    });

    it.each<['all' | 'none', number]>([
      ['all', 2],
      ['none', 1],
    ])(
      "with refetchType '%s', asks again for an entry no hook shows: %i requests",
      async (refetchType, requests) => {
        const client = newClient();
        const queryFn = vi.fn(async () => 'x');
        await client.prefetchQuery({ queryKey: ['a'], queryFn });
        await act(() => client.invalidateQueries({ queryKey: ['a'], refetchType }));
        expect(queryFn).toHaveBeenCalledTimes(requests);
        expect(client.getQueryState(['a'])?.isInvalidated).toBe(refetchType === 'none');
      },
    );
  });

  describe('the cache', () => {
    it('gives back what setQueryData put, by key hash', () => {
      const client = newClient();
      expect(client.setQueryData(['stats', { user: 'u1', period: 'week' }], 42)).toBe(42);
      expect(client.getQueryData(['stats', { period: 'week', user: 'u1' }])).toBe(42);
      expect(client.getQueryState(['stats', { user: 'u1', period: 'week' }])).toMatchObject({
        status: 'success',
        data: 42,
        fetchStatus: 'idle',
      });
      expect(client.getQueryData(['stats'])).toBeUndefined();
    });

    it('gives setQueryData’s updater the current data; undefined changes nothing', () => {
      const client = newClient();
      client.setQueryData<number>(['count'], (previous) => (previous ?? 0) + 1);
      client.setQueryData<number>(['count'], (previous) => (previous ?? 0) + 1);
      expect(client.getQueryData(['count'])).toBe(2);
      client.setQueryData<number>(['count'], () => undefined);
      expect(client.getQueryData(['count'])).toBe(2);
    });

    it('shows setQueryData’s answer in the hooks on that key', async () => {
      const client = newClient();
      const { result } = renderQuery(client, { queryKey: ['a'], queryFn: async () => 'fetched' });
      await advance();
      act(() => void client.setQueryData(['a'], 'written'));
      expect(result.current.data).toBe('written');
    });

    it('fetchQuery gives cached fresh data without asking, and asks when stale', async () => {
      const client = newClient();
      const queryFn = vi.fn(async () => 'fetched');
      client.setQueryData(['a'], 'cached');
      await expect(client.fetchQuery({ queryKey: ['a'], queryFn, staleTime: Infinity })).resolves.toBe(
        'cached',
      );
      expect(queryFn).not.toHaveBeenCalled();
      // staleTime 0 (the default): always stale.
      await expect(client.fetchQuery({ queryKey: ['a'], queryFn })).resolves.toBe('fetched');
      expect(queryFn).toHaveBeenCalledOnce();
    });

    it('fetchQuery does not retry unless asked', async () => {
      const client = newClient();
      const error = new Error('no');
      const queryFn = vi.fn(() => Promise.reject(error));
      await expect(client.fetchQuery({ queryKey: ['a'], queryFn })).rejects.toBe(error);
      expect(queryFn).toHaveBeenCalledOnce();
      expect(client.getQueryState(['a'])).toMatchObject({ status: 'error', error });
    });

    it('prefetchQuery fills the cache and never rejects', async () => {
      const client = newClient();
      const options = queryOptions({ queryKey: ['a'], queryFn: async () => 'x' });
      await expect(client.prefetchQuery(options)).resolves.toBeUndefined();
      expect(client.getQueryData(options.queryKey)).toBe('x');
      const failing = { queryKey: ['b'], queryFn: () => Promise.reject(new Error('no')) };
      await expect(client.prefetchQuery(failing)).resolves.toBeUndefined();
    });

    it('forgets an entry no hook shows after gcTime (5 minutes by default)', async () => {
      const client = newClient();
      const queryFn = async () => 'x';
      const hooks = [
        renderQuery(client, { queryKey: ['short'], queryFn, gcTime: 1000 }),
        renderQuery(client, { queryKey: ['default'], queryFn }),
      ];
      await advance();
      for (const hook of hooks) hook.unmount();
      await advance(999);
      expect(client.getQueryData(['short'])).toBe('x');
      await advance(1);
      expect(client.getQueryState(['short'])).toBeUndefined();
      await advance(5 * 60_000 - 1001);
      expect(client.getQueryData(['default'])).toBe('x');
      await advance(1);
      expect(client.getQueryState(['default'])).toBeUndefined();
    });

    it('forgets an entry with gcTime: 0 right after its hook goes', async () => {
      const client = newClient();
      const { unmount } = renderQuery(client, { queryKey: ['a'], queryFn: async () => 'x', gcTime: 0 });
      await advance();
      unmount();
      expect(client.getQueryData(['a'])).toBe('x');
      await advance();
      expect(client.getQueryState(['a'])).toBeUndefined();
    });

    it('keeps an entry shown again before gcTime', async () => {
      const client = newClient();
      const queryFn = vi.fn(async () => 'x');
      const options = { queryKey: ['a'], queryFn, gcTime: 1000, staleTime: Infinity };
      const { unmount } = renderQuery(client, options);
      await advance();
      unmount();
      await advance(500);
      const { result } = renderQuery(client, options);
      expect(result.current.data).toBe('x');
      await advance(5000);
      expect(client.getQueryData(['a'])).toBe('x');
      expect(queryFn).toHaveBeenCalledOnce();
    });

    it('clear() forgets every entry and aborts their requests', async () => {
      const client = newClient();
      client.setQueryData(['a'], 1);
      client.setQueryData(['b', { id: 1 }], 2);
      const queryFn = vi.fn(hanging);
      const request = client.fetchQuery({ queryKey: ['c'], queryFn });
      await advance();
      client.clear();
      await expect(request).rejects.toThrow();
      expect(signalOf(queryFn, 0).aborted).toBe(true);
      for (const key of [['a'], ['b', { id: 1 }], ['c']]) expect(client.getQueryState(key)).toBeUndefined();
    });

    it.each<[string, { queryKey: QueryKey; exact?: boolean }, unknown[]]>([
      // filters, what stays of ['a'], ['a', 1], ['a', 2], ['b']
      ['a prefix', { queryKey: ['a'] }, [undefined, undefined, undefined, 'x']],
      ['an exact key', { queryKey: ['a'], exact: true }, [undefined, 'x', 'x', 'x']],
      ['a longer key', { queryKey: ['a', 1] }, ['x', undefined, 'x', 'x']],
    ])('removeQueries forgets the entries that match %s', (_what, filters, left) => {
      const client = newClient();
      const keys = [['a'], ['a', 1], ['a', 2], ['b']];
      for (const key of keys) client.setQueryData(key, 'x');
      client.removeQueries(filters);
      expect(keys.map((key) => client.getQueryData(key))).toEqual(left);
    });
  });

  describe('refetching by itself', () => {
    it('asks every refetchInterval while the page is visible, not while hidden', async () => {
      const client = newClient();
      const queryFn = vi.fn(async () => 'x');
      // Without a refetch on return, only the interval asks.
      renderQuery(client, { queryKey: ['a'], queryFn, refetchInterval: 1000, refetchOnWindowFocus: false });
      await advance();
      expect(queryFn).toHaveBeenCalledTimes(1);
      await advance(1000);
      expect(queryFn).toHaveBeenCalledTimes(2);
      await advance(1000);
      expect(queryFn).toHaveBeenCalledTimes(3);
      act(() => setVisibility('hidden'));
      await advance(5000);
      expect(queryFn).toHaveBeenCalledTimes(3);
      act(() => setVisibility('visible'));
      await advance();
      expect(queryFn).toHaveBeenCalledTimes(3);
      await advance(1000);
      expect(queryFn).toHaveBeenCalledTimes(4);
    });

    it('has no interval while disabled', async () => {
      const client = newClient();
      const queryFn = vi.fn(async () => 'x');
      client.setQueryData(['a'], 'cached');
      renderQuery(client, { queryKey: ['a'], queryFn, refetchInterval: 1000, enabled: false });
      await advance(5000);
      expect(queryFn).not.toHaveBeenCalled();
    });

    it('stops the interval when the hook goes', async () => {
      const client = newClient();
      const queryFn = vi.fn(async () => 'x');
      const { unmount } = renderQuery(client, { queryKey: ['a'], queryFn, refetchInterval: 1000 });
      await advance();
      unmount();
      await advance(5000);
      expect(queryFn).toHaveBeenCalledOnce();
    });

    it.each<[QueryOptions['refetchOnWindowFocus'], number, number]>([
      // refetchOnWindowFocus, staleTime, requests in all
      [undefined, 0, 2],
      [true, 0, 2],
      [true, Infinity, 1],
      [false, 0, 1],
      ['always', Infinity, 2],
    ])(
      'on a return to the page, refetchOnWindowFocus %s with staleTime %s: %i requests',
      async (refetchOnWindowFocus, staleTime, requests) => {
        const client = newClient();
        const queryFn = vi.fn(async () => 'x');
        renderQuery(client, { queryKey: ['a'], queryFn, staleTime, refetchOnWindowFocus });
        await advance();
        act(() => setVisibility('hidden'));
        await advance();
        act(() => setVisibility('visible'));
        await advance();
        expect(queryFn).toHaveBeenCalledTimes(requests);
      },
    );

    it.each<[QueryOptions['refetchOnReconnect'], number, number]>([
      // refetchOnReconnect, staleTime, requests in all
      [undefined, 0, 2],
      [true, Infinity, 1],
      [false, 0, 1],
      ['always', Infinity, 2],
    ])(
      'back online, refetchOnReconnect %s with staleTime %s: %i requests',
      async (refetchOnReconnect, staleTime, requests) => {
        const client = newClient();
        const queryFn = vi.fn(async () => 'x');
        renderQuery(client, { queryKey: ['a'], queryFn, staleTime, refetchOnReconnect });
        await advance();
        act(() => onlineManager.setOnline(false));
        await advance();
        act(() => onlineManager.setOnline(true));
        await advance();
        expect(queryFn).toHaveBeenCalledTimes(requests);
      },
    );

    it('refetch() asks again even when the data is fresh, and gives the new result', async () => {
      const client = newClient();
      let calls = 0;
      const queryFn = vi.fn(async () => `answer ${++calls}`);
      const { result } = renderQuery(client, { queryKey: ['a'], queryFn, staleTime: Infinity });
      await advance();
      let refetched: string | undefined;
      await act(async () => {
        refetched = (await result.current.refetch()).data;
      });
      expect(queryFn).toHaveBeenCalledTimes(2);
      expect(refetched).toBe('answer 2');
      expect(result.current.data).toBe('answer 2');
    });
  });

  describe('structural sharing', () => {
    it('keeps the same data object for an equal answer, so effects on it do not run again', async () => {
      const client = newClient();
      // A new object each time, as JSON from the server.
      const queryFn = vi.fn(async () => ({ lessons: [{ id: 1, title: 'Fractions' }], total: 1 }));
      let effects = 0;
      const { result } = renderHook(
        () => {
          const query = useQuery({ queryKey: ['lessons'], queryFn });
          useEffect(() => {
            effects += 1;
          }, [query.data]);
          return query;
        },
        { wrapper: wrapperFor(client) },
      );
      await advance();
      const first = result.current.data;
      expect(effects).toBe(2); // undefined, then the answer
      await act(() => result.current.refetch());
      expect(queryFn).toHaveBeenCalledTimes(2);
      expect(result.current.data).toBe(first);
      expect(effects).toBe(2);
    });

    it('keeps the unchanged parts of a changed answer', async () => {
      const client = newClient();
      const before = { user: { name: 'Ada' }, lessons: [{ id: 1 }, { id: 2, done: false }] };
      const after = { user: { name: 'Ada' }, lessons: [{ id: 1 }, { id: 2, done: true }] };
      let calls = 0;
      const queryFn = vi.fn(async () => structuredClone(++calls === 1 ? before : after));
      const { result } = renderQuery(client, { queryKey: ['home'], queryFn });
      await advance();
      const first = result.current.data;
      await act(() => result.current.refetch());
      const second = result.current.data;
      expect(second).toEqual(after);
      expect(second).not.toBe(first);
      expect(second?.user).toBe(first?.user);
      expect(second?.lessons[0]).toBe(first?.lessons[0]);
    });

    it('gives each answer as it came with structuralSharing: false', async () => {
      const client = newClient();
      const queryFn = vi.fn(async () => ({ id: 1 }));
      const { result } = renderQuery(client, { queryKey: ['a'], queryFn, structuralSharing: false });
      await advance();
      const first = result.current.data;
      await act(() => result.current.refetch());
      expect(result.current.data).toEqual(first);
      expect(result.current.data).not.toBe(first);
    });
  });
});
