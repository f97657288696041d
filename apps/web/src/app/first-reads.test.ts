/**
 * A signed-in route's loader in the browser (app/first-reads.ts, decisions 0030 and 0060): it waits
 * for the learner and the route's reads, so the first screen renders whole, but never longer than
 * its bound, and never for a visit that has nobody to load.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SANDBOX_TOKEN } from '../lib/sandbox';
import { loadUser } from '../lib/session';
import { setToken } from '../lib/storage';
import { mockApi } from '../test/api-mock';
import { me } from '../test/fixtures';
import { firstReadsLoader } from './first-reads';
import type { ReadsContext, RouteDef } from './route-meta';

const home: RouteDef = { path: '/', access: 'user', titleKey: 'routes.home' };

afterEach(() => vi.useRealTimers());

describe("a signed-in route's loader in the browser", () => {
  it("puts the route's reads in the query cache for the learner once known", async () => {
    setToken('token');
    mockApi({ 'users/me': { body: me('public', 'u-9') } });
    const reads = vi.fn(async (context: ReadsContext) => {
      context.client.setQueryData(['seen'], context.userId);
    });
    const loader = firstReadsLoader(home, reads);
    void loadUser();
    await expect(loader({}, '?period=past')).resolves.toBeNull();
    expect(reads).toHaveBeenCalledTimes(1);
    const context = reads.mock.calls[0]![0];
    expect(context).toMatchObject({ userId: 'u-9', search: '?period=past', server: false });
    expect(context.client).toBeInstanceOf(QueryClient);
  });

  it('reads nothing without a token or in sandbox mode', async () => {
    const reads = vi.fn(async () => undefined);
    const loader = firstReadsLoader(home, reads);
    setToken(null);
    await loader({}, '');
    setToken(SANDBOX_TOKEN);
    await loader({}, '');
    expect(reads).not.toHaveBeenCalled();
  });

  it('renders anyway once its bound has passed (a user load that does not end)', async () => {
    vi.useFakeTimers();
    setToken('token');
    // users/me never answers: the session stays "connecting".
    mockApi({ 'users/me': () => new Promise(() => undefined) });
    void loadUser();
    const reads = vi.fn(async () => undefined);
    let done = false;
    const loading = firstReadsLoader(home, reads, 2_000)({}, '').then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await loading;
    expect(done).toBe(true);
    expect(reads).not.toHaveBeenCalled();
  });
});
