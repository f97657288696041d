import { ownerPlugin, withoutSearchPlugin } from '../../vite-sw-owner';
import { markOwner } from './device-owner';

/** The Cache API as far as the plugin and the owner mark use it, in memory. */
function memoryCaches() {
  const stores = new Map<string, Map<string, Response>>();
  const open = async (name: string) => {
    const store = stores.get(name) ?? new Map<string, Response>();
    stores.set(name, store);
    return {
      put: async (key: string, response: Response) =>
        void store.set(new URL(key, 'http://localhost').href, response),
      match: async (key: string) => store.get(new URL(key, 'http://localhost').href)?.clone(),
    };
  };
  return {
    open,
    delete: async (name: string) => stores.delete(name),
    match: async (key: string, options?: { cacheName?: string }) =>
      (await open(options?.cacheName ?? '')).match(key),
  };
}

const call = <K extends 'cacheKeyWillBeUsed' | 'cachedResponseWillBeUsed' | 'cacheWillUpdate'>(
  name: K,
  param: Record<string, unknown>,
) => (ownerPlugin[name] as unknown as (p: Record<string, unknown>) => Promise<unknown>)(param);

const FILE = 'http://localhost/api/files/f1/download?u=a&exp=1&sig=x';
const request = (mode: RequestMode = 'cors') => ({ url: FILE, mode }) as Request;

describe("the service worker's copies belong to one learner (decision 0045)", () => {
  beforeEach(() => vi.stubGlobal('caches', memoryCaches()));
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['no learner', null, 'http://localhost/api/files/f1/download?__owner=-'],
    [
      'a learner',
      { userId: 'u-a', expiresAt: Date.now() + 60_000 },
      'http://localhost/api/files/f1/download?__owner=u-a',
    ],
    [
      'a learner whose token expired',
      { userId: 'u-a', expiresAt: Date.now() - 1 },
      'http://localhost/api/files/f1/download?__owner=-',
    ],
  ])('keys a copy by its learner, without the signature: %s', async (_name, owner, key) => {
    if (owner) await markOwner(owner);
    expect(await call('cacheKeyWillBeUsed', { request: request(), mode: 'read' })).toBe(key);
  });

  it.each([
    ["the learner's key, from the page", '?__owner=u-a', 'cors', true],
    ['no learner', '?__owner=-', 'cors', false],
    ['an address typed in the bar', '?__owner=u-a', 'navigate', false],
  ] as const)('serves a kept copy for %s: %s', async (_name, query, mode, served) => {
    const kept = new Response('bytes');
    const answer = await call('cachedResponseWillBeUsed', {
      request: { url: `http://localhost/api/files/f1/download${query}` },
      cachedResponse: kept,
      event: { request: request(mode) },
    });
    expect(answer).toBe(served ? kept : null);
  });

  it('keeps nothing without a learner, nor for a navigation', async () => {
    const ok = new Response('bytes', { status: 200 });
    expect(await call('cacheWillUpdate', { request: request(), response: ok })).toBeNull();
    await markOwner({ userId: 'u-a', expiresAt: null });
    expect(await call('cacheWillUpdate', { request: request(), response: ok })).toBe(ok);
    expect(await call('cacheWillUpdate', { request: request('navigate'), response: ok })).toBeNull();
  });

  it("keeps the tenant's context once, whatever its query string (the page's noCache=keep read)", async () => {
    const key = await (
      withoutSearchPlugin.cacheKeyWillBeUsed as unknown as (p: { request: Request }) => Promise<string>
    )({ request: { url: 'http://localhost/api/contexts/current?noCache=keep' } as Request });
    expect(key).toBe('http://localhost/api/contexts/current');
  });
});
