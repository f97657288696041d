import { useEffect, useState } from 'react';
import { apiFetch } from '../../../lib/api-client';
import { quotaKeyOf } from '../../../lib/api-errors';
import type { TincanLaunch } from '../row-props';

/** What the LRS answers to a launch (docs/api.md "Learning records", docs/product.md §7). */
export interface TincanLaunchParams {
  endpoint: string;
  auth: string;
  actor: unknown;
  registration: string;
}

/** POST /api/xapi/launches: credentials for this learner and this launch of the module. */
export function requestLaunch(launch: TincanLaunch): Promise<TincanLaunchParams> {
  return apiFetch<TincanLaunchParams>('xapi/launches', { method: 'POST', body: launch });
}

/**
 * docs/product.md §7: the module's address carries endpoint, auth (Basic), actor (JSON) and registration,
 * as query parameters (the usual xAPI launch), added to any the address already has.
 */
export function withLaunchParams(src: string, p: TincanLaunchParams): string {
  const url = new URL(src);
  url.searchParams.set('endpoint', p.endpoint);
  url.searchParams.set('auth', p.auth);
  url.searchParams.set('actor', JSON.stringify(p.actor));
  url.searchParams.set('registration', p.registration);
  return url.href;
}

/** `refusal`: the catalogue key (`quota.*`) when the launch was refused for the learner's budget. */
export type LaunchState =
  { status: 'pending' } | { status: 'ready'; params: TincanLaunchParams | null; refusal?: string };

/**
 * The launch parameters of a module page, asked once per launch. Without a launch (a module in
 * a content row, an answered page) or when the call fails, the module opens without them and
 * can still report its score by message. Once scored, the page comes back without its launch:
 * the module at the same address keeps its parameters (a new address would reload it mid-way).
 */
export function useTincanLaunch(launch: TincanLaunch | null | undefined, src: string | null): LaunchState {
  const key = launch ? `${launch.lessonId}\u0000${launch.pageId}\u0000${launch.launch}` : null;
  const [state, setState] = useState<{ key: string | null; src: string | null; value: LaunchState }>({
    key: null,
    src: null,
    value: { status: 'ready', params: null },
  });
  useEffect(() => {
    if (!key || !launch) return undefined;
    let live = true;
    requestLaunch(launch).then(
      (params) => live && setState({ key, src, value: { status: 'ready', params } }),
      (error: unknown) => {
        console.warn('learning-record launch refused', error);
        // Past the learner's budget (issue 36): the module opens all the same, and the player says why.
        const refusal = quotaKeyOf(error);
        if (live)
          setState({ key, src, value: { status: 'ready', params: null, ...(refusal ? { refusal } : {}) } });
      },
    );
    return () => {
      live = false;
    };
    // The launch object is rebuilt on each render; its key says when it changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  if (!key) return state.src !== null && state.src === src ? state.value : { status: 'ready', params: null };
  return state.key === key ? state.value : { status: 'pending' };
}
