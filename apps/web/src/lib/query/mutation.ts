import type { QueryClient } from './client';
import { runWithRetry } from './retryer';
import type { MutateCallbacks, MutationOptions, MutationResult } from './types';

type State<TData, TVariables> = Pick<
  MutationResult<TData, TVariables>,
  'status' | 'data' | 'error' | 'variables' | 'isPaused' | 'failureCount' | 'submittedAt'
>;

const idle = {
  status: 'idle',
  data: undefined,
  error: null,
  variables: undefined,
  isPaused: false,
  failureCount: 0,
  submittedAt: 0,
} as const;

/**
 * What one `useMutation` shows: the state of its latest call. Each call runs with the options of
 * the render it was made from; the hook's callbacks run (and are awaited) before the call
 * resolves, those given to `mutate` only if the hook is still on screen and the call is still
 * its latest, as TanStack Query does.
 */
export class MutationObserver<TData, TVariables, TContext> {
  private options!: MutationOptions<TData, TVariables, TContext>;
  private state: State<TData, TVariables> = idle;
  private result: MutationResult<TData, TVariables, TContext> | null = null;
  private readonly listeners = new Set<() => void>();
  private latest = 0;

  constructor(private readonly client: QueryClient) {}

  setOptions(options: MutationOptions<TData, TVariables, TContext>): void {
    this.options = this.client.defaultMutationOptions(options);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  getSnapshot = (): MutationResult<TData, TVariables, TContext> => {
    const { status } = this.state;
    this.result ??= {
      ...this.state,
      isIdle: status === 'idle',
      isPending: status === 'pending',
      isSuccess: status === 'success',
      isError: status === 'error',
      mutate: this.mutate,
      mutateAsync: this.mutateAsync,
      reset: this.reset,
    } as MutationResult<TData, TVariables, TContext>;
    return this.result;
  };

  /** Changes the state of call `id`, unless a later call (or a reset) has replaced it. */
  private patch(id: number, patch: Partial<State<TData, TVariables>>): void {
    if (id !== this.latest) return;
    this.state = { ...this.state, ...patch } as State<TData, TVariables>;
    this.result = null;
    for (const listener of [...this.listeners]) listener();
  }

  reset = (): void => {
    this.patch(this.latest, idle);
    this.latest += 1;
  };

  mutate = (variables: TVariables, callbacks?: MutateCallbacks<TData, TVariables, TContext>): void => {
    this.mutateAsync(variables, callbacks).catch(() => undefined);
  };

  mutateAsync = async (
    variables: TVariables,
    callbacks: MutateCallbacks<TData, TVariables, TContext> = {},
  ): Promise<TData> => {
    const id = ++this.latest;
    const options = this.options;
    const mine = () => id === this.latest && this.listeners.size > 0;
    this.state = idle;
    this.patch(id, { status: 'pending', variables, submittedAt: Date.now() });
    let context: TContext | undefined;
    let data: TData;
    try {
      context = await options.onMutate?.(variables);
      data = await runWithRetry(
        () => {
          if (!options.mutationFn) throw new Error('No mutationFn found');
          return options.mutationFn(variables);
        },
        {
          retry: options.retry ?? 0,
          retryDelay: options.retryDelay,
          networkMode: options.networkMode,
          onFail: (failureCount) => this.patch(id, { failureCount }),
          onPause: (isPaused) => this.patch(id, { isPaused }),
        },
      );
      await options.onSuccess?.(data, variables, context);
      await options.onSettled?.(data, null, variables, context);
    } catch (caught) {
      const error = caught as Error;
      try {
        await options.onError?.(error, variables, context);
        await options.onSettled?.(undefined, error, variables, context);
      } finally {
        this.patch(id, {
          status: 'error',
          error,
          isPaused: false,
          failureCount: this.state.failureCount + 1,
        });
        if (mine()) {
          await callbacks.onError?.(error, variables, context);
          await callbacks.onSettled?.(undefined, error, variables, context);
        }
      }
      throw error;
    }
    this.patch(id, { status: 'success', data, isPaused: false, failureCount: 0 });
    if (mine()) {
      await callbacks.onSuccess?.(data, variables, context);
      await callbacks.onSettled?.(data, null, variables, context);
    }
    return data;
  };
}
