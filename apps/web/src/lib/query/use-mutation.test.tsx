import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { QueryClient } from '.';
import { onlineManager, useMutation, useQueryClient } from '.';
import { newClient, wrapperFor, deferred } from './query-test-utils';

describe('useMutation', () => {
  function renderMutation<TData, TVariables, TContext>(
    client: QueryClient,
    options: Parameters<typeof useMutation<TData, TVariables, TContext>>[0],
  ) {
    return renderHook(() => useMutation(options), { wrapper: wrapperFor(client) });
  }

  it('goes from idle to pending to success, with the data and the variables', async () => {
    const client = newClient();
    const saved = deferred<string>();
    const { result } = renderMutation(client, { mutationFn: (_lesson: number) => saved.promise });
    expect(result.current).toMatchObject({
      status: 'idle',
      isIdle: true,
      data: undefined,
      variables: undefined,
    });
    act(() => result.current.mutate(7));
    expect(result.current).toMatchObject({
      status: 'pending',
      isPending: true,
      variables: 7,
      data: undefined,
    });
    saved.resolve('saved');
    await waitFor(() => expect(result.current.status).toBe('success'));
    expect(result.current).toMatchObject({ isSuccess: true, data: 'saved', variables: 7, error: null });
  });

  it('calls onMutate, mutationFn, then the hook’s callbacks (awaited), then the call’s', async () => {
    const client = newClient();
    const log: string[] = [];
    const hookOnSuccess = deferred<void>();
    const { result } = renderMutation(client, {
      onMutate: (lesson: number) => {
        log.push(`onMutate ${lesson}`);
        return `context ${lesson}`;
      },
      mutationFn: async (lesson: number) => {
        log.push(`mutationFn ${lesson}`);
        return `saved ${lesson}`;
      },
      onSuccess: async (data, lesson, context) => {
        log.push(`onSuccess ${data} ${lesson} ${context}`);
        await hookOnSuccess.promise;
        log.push('onSuccess done');
      },
      onError: () => log.push('onError'),
      onSettled: (data, error, lesson, context) =>
        log.push(`onSettled ${data} ${error} ${lesson} ${context}`),
    });
    let resolved = false;
    const call = result.current
      .mutateAsync(1, {
        onSuccess: (data) => log.push(`call onSuccess ${data}`),
        onError: () => log.push('call onError'),
        onSettled: (data, error) => log.push(`call onSettled ${data} ${error}`),
      })
      .then((data) => {
        resolved = true;
        log.push(`resolved ${data}`);
      });
    await waitFor(() => expect(log).toContain('onSuccess saved 1 1 context 1'));
    // The hook's onSuccess has not ended: neither has the call.
    expect(resolved).toBe(false);
    expect(result.current.status).toBe('pending');
    hookOnSuccess.resolve();
    await act(() => call);
    expect(log).toEqual([
      'onMutate 1',
      'mutationFn 1',
      'onSuccess saved 1 1 context 1',
      'onSuccess done',
      'onSettled saved 1 null 1 context 1',
      'call onSuccess saved 1',
      'call onSettled saved 1 null',
      'resolved saved 1',
    ]);
    expect(result.current).toMatchObject({ status: 'success', data: 'saved 1' });
  });

  it('on failure, calls onError and onSettled; mutateAsync rejects, mutate does not throw', async () => {
    const client = newClient();
    const error = new Error('refused');
    const hook = { onError: vi.fn(), onSettled: vi.fn(), onSuccess: vi.fn() };
    const call = { onError: vi.fn(), onSettled: vi.fn(), onSuccess: vi.fn() };
    const { result } = renderMutation(client, {
      mutationFn: (_lesson: number) => Promise.reject(error),
      onMutate: () => 'context',
      ...hook,
    });
    await expect(result.current.mutateAsync(1, call)).rejects.toBe(error);
    expect(hook.onError).toHaveBeenCalledWith(error, 1, 'context');
    expect(hook.onSettled).toHaveBeenCalledWith(undefined, error, 1, 'context');
    expect(call.onError).toHaveBeenCalledWith(error, 1, 'context');
    expect(call.onSettled).toHaveBeenCalledWith(undefined, error, 1, 'context');
    expect(hook.onSuccess).not.toHaveBeenCalled();
    expect(call.onSuccess).not.toHaveBeenCalled();
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current).toMatchObject({ isError: true, error, data: undefined, variables: 1 });

    // An unhandled rejection here would fail the run.
    let returned: unknown = 'something';
    act(() => {
      returned = result.current.mutate(2);
    });
    expect(returned).toBeUndefined();
    await waitFor(() => expect(hook.onError).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(result.current).toMatchObject({ status: 'error', variables: 2 }));
  });

  it('runs the hook’s callbacks but not the call’s after the hook is gone', async () => {
    const client = newClient();
    const saved = deferred<string>();
    const hookOnSuccess = vi.fn();
    const call = { onSuccess: vi.fn(), onSettled: vi.fn() };
    const { result, unmount } = renderMutation(client, {
      mutationFn: () => saved.promise,
      onSuccess: hookOnSuccess,
    });
    const done = result.current.mutateAsync(undefined, call);
    unmount();
    saved.resolve('ok');
    await expect(done).resolves.toBe('ok');
    expect(hookOnSuccess).toHaveBeenCalledOnce();
    expect(call.onSuccess).not.toHaveBeenCalled();
    expect(call.onSettled).not.toHaveBeenCalled();
  });

  it('with two calls, shows the latest and runs only its per-call callbacks', async () => {
    const client = newClient();
    const [firstAnswer, secondAnswer] = [deferred<string>(), deferred<string>()];
    const { result } = renderMutation(client, {
      mutationFn: (index: number) => (index === 0 ? firstAnswer : secondAnswer).promise,
    });
    const first = { onSuccess: vi.fn(), onSettled: vi.fn() };
    const second = { onSuccess: vi.fn(), onSettled: vi.fn() };
    let firstCall: Promise<string> | undefined;
    let secondCall: Promise<string> | undefined;
    act(() => {
      firstCall = result.current.mutateAsync(0, first);
      secondCall = result.current.mutateAsync(1, second);
    });
    expect(result.current).toMatchObject({ status: 'pending', variables: 1 });
    // The first call ends first: the state stays the second's.
    firstAnswer.resolve('first');
    await act(() => firstCall);
    expect(result.current).toMatchObject({ status: 'pending', variables: 1, data: undefined });
    secondAnswer.resolve('second');
    await act(() => secondCall);
    expect(result.current).toMatchObject({ status: 'success', variables: 1, data: 'second' });
    expect(first.onSuccess).not.toHaveBeenCalled();
    expect(first.onSettled).not.toHaveBeenCalled();
    expect(second.onSuccess).toHaveBeenCalledWith('second', 1, undefined);
    expect(second.onSettled).toHaveBeenCalledWith('second', null, 1, undefined);
  });

  it('reset() goes back to idle', async () => {
    const client = newClient();
    const { result } = renderMutation(client, { mutationFn: async (lesson: number) => `saved ${lesson}` });
    await act(() => result.current.mutateAsync(1));
    expect(result.current.status).toBe('success');
    act(() => result.current.reset());
    expect(result.current).toMatchObject({
      status: 'idle',
      isIdle: true,
      data: undefined,
      variables: undefined,
    });
  });

  it('after reset() during a call, does not show its end', async () => {
    const client = newClient();
    const saved = deferred<string>();
    const onSuccess = vi.fn();
    const { result } = renderMutation(client, { mutationFn: () => saved.promise });
    let call: Promise<string> | undefined;
    act(() => {
      call = result.current.mutateAsync(undefined, { onSuccess });
    });
    act(() => result.current.reset());
    saved.resolve('ok');
    await act(() => call);
    expect(result.current.status).toBe('idle');
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it('does not retry by default, and retries as defaultOptions.mutations says', async () => {
    const flaky = () =>
      vi.fn<() => Promise<string>>().mockRejectedValueOnce(new Error('flaky')).mockResolvedValue('ok');
    const once = flaky();
    const { result: plain } = renderMutation(newClient(), { mutationFn: once });
    await act(() => expect(plain.current.mutateAsync(undefined)).rejects.toThrow('flaky'));
    expect(once).toHaveBeenCalledOnce();

    const twice = flaky();
    const client = newClient({ mutations: { retry: 1, retryDelay: 0 } });
    const { result } = renderMutation(client, { mutationFn: twice });
    await act(() => expect(result.current.mutateAsync(undefined)).resolves.toBe('ok'));
    expect(twice).toHaveBeenCalledTimes(2);
    expect(result.current.status).toBe('success');
  });

  it('counts the failures of the latest call as TanStack Query does', async () => {
    const client = newClient();
    const mutationFn = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('flaky'))
      .mockResolvedValue('ok');
    const { result } = renderMutation(client, { mutationFn, retry: 1, retryDelay: 0 });
    await act(() => result.current.mutateAsync(undefined));
    // A success clears the count.
    expect(result.current).toMatchObject({ status: 'success', failureCount: 0 });
    mutationFn.mockRejectedValue(new Error('down'));
    await act(() => expect(result.current.mutateAsync(undefined)).rejects.toThrow('down'));
    // Two attempts, two failures.
    expect(result.current).toMatchObject({ status: 'error', failureCount: 2 });
  });

  it("in network mode 'online', waits for the browser to be online (paused)", async () => {
    const client = newClient();
    const mutationFn = vi.fn(async (lesson: number) => `saved ${lesson}`);
    onlineManager.setOnline(false);
    const { result } = renderMutation(client, { mutationFn });
    act(() => result.current.mutate(1));
    await waitFor(() => expect(result.current.isPaused).toBe(true));
    expect(result.current.status).toBe('pending');
    expect(mutationFn).not.toHaveBeenCalled();
    act(() => onlineManager.setOnline(true));
    await waitFor(() => expect(result.current.status).toBe('success'));
    expect(result.current).toMatchObject({ isPaused: false, data: 'saved 1' });
    expect(mutationFn).toHaveBeenCalledOnce();
  });

  it("in network mode 'always', sends while offline", async () => {
    const client = newClient();
    const mutationFn = vi.fn(async () => 'sent');
    onlineManager.setOnline(false);
    const { result } = renderMutation(client, { mutationFn, networkMode: 'always' });
    await act(() => expect(result.current.mutateAsync(undefined)).resolves.toBe('sent'));
    expect(result.current.isPaused).toBe(false);
  });
});

describe('useQueryClient', () => {
  it('gives the provider’s client, or the one passed', () => {
    const client = newClient();
    const other = newClient();
    expect(renderHook(() => useQueryClient(), { wrapper: wrapperFor(client) }).result.current).toBe(client);
    expect(renderHook(() => useQueryClient(other)).result.current).toBe(other);
  });

  it('throws outside a provider', () => {
    // The render error is reported on the console too.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useQueryClient())).toThrow('No QueryClient set');
  });
});
