import { act, cleanup, renderHook } from '@testing-library/react';
import { type ReactNode } from 'react';
import { afterEach, onTestFinished, vi } from 'vitest';
import {
  QueryClient,
  QueryClientProvider,
  onlineManager,
  useQuery,
  type DefaultOptions,
  type QueryFunctionContext,
  type QueryKey,
  type QueryOptions,
} from '.';

/** A client for one test, emptied after it (its requests aborted). */
export function newClient(defaultOptions?: DefaultOptions) {
  const client = new QueryClient({ defaultOptions });
  onTestFinished(() => client.clear());
  return client;
}

export function wrapperFor(client: QueryClient) {
  return function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  };
}

/** One useQuery whose options the test can change with `rerender`. */
export function renderQuery<TData>(client: QueryClient, options: QueryOptions<TData>) {
  return renderHook((props: QueryOptions<TData>) => useQuery(props), {
    wrapper: wrapperFor(client),
    initialProps: options,
  });
}

export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** A query function that never answers and fails when aborted, as fetch does. */
export function hanging({ signal }: QueryFunctionContext): Promise<string> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
}

/** The signal the query function got on its call number `n` (from 0). */
export function signalOf(queryFn: { mock: { calls: [QueryFunctionContext][] } }, n: number): AbortSignal {
  const call = queryFn.mock.calls[n];
  if (!call) throw new Error(`The query function has no call ${n}`);
  return call[0].signal;
}

/** Its key, joined: an answer that says which entry asked. */
export const byKey = async ({ queryKey }: QueryFunctionContext) => queryKey.join('/');

/** How many times `queryFn` was asked for `key`. */
export const callsFor = (queryFn: { mock: { calls: [QueryFunctionContext][] } }, key: QueryKey) =>
  queryFn.mock.calls.filter(([context]) => JSON.stringify(context.queryKey) === JSON.stringify(key)).length;

/**
 * Settles what is pending (promises, renders, effects) and moves fake time on by `ms`: each
 * step of advanceTimersByTimeAsync yields to the real event loop, so every promise chain ends.
 */
export const advance = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms));

export function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

afterEach(() => {
  // Unmount first: hooks still on screen would answer to the events below.
  cleanup();
  vi.useRealTimers();
  onlineManager.setOnline(true);
  Reflect.deleteProperty(document, 'visibilityState');
  document.dispatchEvent(new Event('visibilitychange'));
});
