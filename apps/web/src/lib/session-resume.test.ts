/**
 * Decision 0045 (shared device): a session's end clears the device's copies in the background; a
 * page that goes meanwhile (the tab closed, or navigated, as the session ended) stops it. The
 * next page then finds no token, so no session to end: before this test, the last learner's
 * lesson media and users/me stayed in the worker's caches after the next learner signed in
 * (a browser journey, shared-device.spec.ts, saw it about once in ten runs).
 *
 * Two pages of one browser: two module instances (vi.resetModules) over one CacheStorage, which
 * outlives a page as the browser's does.
 */
import { mockApi } from '../test/api-mock';
import { fakeToken, me } from '../test/fixtures';
import { memoryCaches } from '../test/memory-caches';
import { OWNER_CACHE, OWNER_KEY } from './device-owner';

const hour = () => Math.floor(Date.now() / 1000) + 3600;

/** A page of a browser whose caches outlive it, with Théo signed in. */
async function theoSignedIn() {
  const browser = memoryCaches();
  vi.stubGlobal('caches', browser.storage);
  const session = await import('./session');
  mockApi({ 'users/me': { body: me('public', 'theo') } });
  await session.startSession(fakeToken({ sub: 'theo', exp: hour() }), 'theo');
  return { browser, session };
}

describe('a clearing of the device cut short by the page going (decision 0045)', () => {
  it('is finished at the next start, before the next learner signs in', async () => {
    // Page 1: Théo's session, with the worker's copies of his media and users/me.
    const { browser, session: first } = await theoSignedIn();
    await (
      await browser.storage.open('parcours-media')
    ).put('/api/files/f-1/download?__owner=theo', new Response('png'));
    await (
      await browser.storage.open('parcours-session')
    ).put('/api/users/me?__owner=theo', new Response('{}'));

    // His session ends as the tab goes: the storage is cleared at once, the caches never are.
    browser.pageGoes();
    first.endExpiredSession();
    browser.nextPage();

    // Page 2, the same browser: Inès starts the app and signs in.
    vi.resetModules();
    const second = await import('./session');
    const boot = await import('../app/boot');
    mockApi({ 'users/me': { body: me('public', 'ines') }, 'contexts/current': { status: 404 } });
    await boot.boot().catch(() => undefined);
    await second.startSession(fakeToken({ sub: 'ines', exp: hour() }), 'ines');

    // Nothing of Théo's is left: the worker keeps copies for Inès only from now on.
    expect(browser.entries()).toEqual([`parcours-owner http://localhost${OWNER_KEY}`]);
    const mark = await browser.storage.match(OWNER_KEY, { cacheName: OWNER_CACHE });
    expect(((await mark?.json()) as { userId?: string } | undefined)?.userId).toBe('ines');
    // Done, so the page after this one clears nothing more.
    expect(window.localStorage.getItem('parcours.forgetPending')).toBeNull();
  });

  it('a clearing that ends normally leaves nothing pending', async () => {
    const { browser, session } = await theoSignedIn();
    session.endExpiredSession();
    await session.deviceForgotten();
    expect(window.localStorage.getItem('parcours.forgetPending')).toBeNull();
    expect(browser.entries()).toEqual([]);
  });
});
