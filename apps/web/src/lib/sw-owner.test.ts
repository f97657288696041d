import { ownerPlugin, withoutSearchPlugin } from '../../vite-sw-owner';
import { memoryCaches } from '../test/memory-caches';
import { forgetOwner, markOwner } from './device-owner';

const call = <
  K extends 'cacheKeyWillBeUsed' | 'cachedResponseWillBeUsed' | 'cacheWillUpdate' | 'cacheDidUpdate',
>(
  name: K,
  param: Record<string, unknown>,
) => (ownerPlugin[name] as unknown as (p: Record<string, unknown>) => Promise<unknown>)(param);

const FILE = 'http://localhost/api/files/f1/download?u=a&exp=1&sig=x';
const request = (mode: RequestMode = 'cors') => ({ url: FILE, mode }) as Request;

describe("the service worker's copies belong to one learner (decision 0045)", () => {
  let browser: ReturnType<typeof memoryCaches>;
  beforeEach(() => {
    browser = memoryCaches();
    vi.stubGlobal('caches', browser.storage);
  });
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

  it.each([
    ['the session ended while the file was on its way', null, []],
    ['another learner signed in meanwhile', { userId: 'u-b', expiresAt: null }, []],
    [
      'the same learner',
      { userId: 'u-a', expiresAt: null },
      ['parcours-media http://localhost/api/files/f1/download?__owner=u-a'],
    ],
  ] as const)(
    'a copy put for a learner the device no longer serves goes at once: %s',
    async (_name, next, left) => {
      // Checked (cacheWillUpdate) while u-a was the device's learner; put after the end had deleted
      // the caches, which the put re-created.
      await markOwner({ userId: 'u-a', expiresAt: null });
      const key = 'http://localhost/api/files/f1/download?__owner=u-a';
      await forgetOwner();
      if (next) await markOwner(next);
      await (await caches.open('parcours-media')).put(key, new Response('bytes'));
      await call('cacheDidUpdate', { cacheName: 'parcours-media', request: new Request(key) });
      expect(browser.entries().filter((entry) => entry.startsWith('parcours-media'))).toEqual(left);
    },
  );

  it("keeps the tenant's context once, whatever its query string (the page's noCache=keep read)", async () => {
    const key = await (
      withoutSearchPlugin.cacheKeyWillBeUsed as unknown as (p: { request: Request }) => Promise<string>
    )({ request: { url: 'http://localhost/api/contexts/current?noCache=keep' } as Request });
    expect(key).toBe('http://localhost/api/contexts/current');
  });
});
