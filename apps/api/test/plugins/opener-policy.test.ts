import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';

/**
 * The back office opens /preview and /correction in a window and waits for their 'mounted'
 * message: with COOP same-origin the window would lose its opener and the message could never
 * be sent. Every other page keeps COOP same-origin.
 */
let t: TestContext;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('Cross-Origin-Opener-Policy', () => {
  it.each([
    ['/preview', 'unsafe-none'],
    ['/preview?x=1', 'unsafe-none'],
    ['/correction', 'unsafe-none'],
    ['/correction/l1/page/p1', 'unsafe-none'],
    ['/login', 'same-origin'],
    ['/previewer', 'same-origin'],
    ['/api/contexts/current', 'same-origin'],
  ])('%s → %s', async (url, policy) => {
    const res = await t.app.inject({ url, headers: { host: 'alpha.test' } });
    expect(res.headers['cross-origin-opener-policy']).toBe(policy);
  });
});
