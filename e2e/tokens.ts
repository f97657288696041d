import { createHmac } from 'node:crypto';
import type { Page } from '@playwright/test';
import { e2eJwtSecret } from './playwright.config';

/** The claims of a token, read as the web reads them (no check of the signature). */
export function claimsOf(token: string): { sub: string; ctx: string; iat: number; exp: number } {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    sub: string;
    ctx: string;
    iat: number;
    exp: number;
  };
}

/**
 * A token like the server's (plugins/auth.ts) for the same learner and tenant, with another
 * expiry: what the browser holds once its 8 hours are over, without waiting 8 hours.
 */
export function forgeToken(like: string, exp: number): string {
  const { sub, ctx } = claimsOf(like);
  const iat = Math.min(Math.floor(Date.now() / 1000), exp - 60);
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub, ctx, iat, exp, iatMs: iat * 1000 })}`;
  const signature = createHmac('sha256', e2eJwtSecret).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}

export const storedToken = (page: Page): Promise<string | null> =>
  page.evaluate(() => window.localStorage.getItem('parcours.token'));

/**
 * Watches the API's 401 answers on a page. `lateCalls` counts the calls that got a 401 but were
 * sent after the first 401 had come back: the session was already over, so the app should not
 * have made them (issue 27: at most one 401 per call in flight, then /login).
 */
export function watchUnauthorized(page: Page) {
  let clock = 0;
  let firstAnswer: number | null = null;
  const sentAt = new Map<object, number>();
  const seen = { unauthorized: 0, lateCalls: 0, paths: [] as string[] };
  page.on('request', (request) => {
    if (request.url().includes('/api/')) sentAt.set(request, ++clock);
  });
  page.on('response', (response) => {
    if (!response.url().includes('/api/') || response.status() !== 401) return;
    // The service worker's keep-reads (lib/service-worker.ts keepStartReads, sent when it first
    // controls the tab) are no call of the session: their answer is never read, so their 401 tells
    // the app nothing. CI saw one land first, which made every later call look "late".
    if (new URL(response.url()).searchParams.get('noCache') === 'keep') return;
    const tick = ++clock;
    firstAnswer ??= tick;
    seen.unauthorized += 1;
    seen.paths.push(new URL(response.url()).pathname);
    if ((sentAt.get(response.request()) ?? 0) > firstAnswer) seen.lateCalls += 1;
  });
  return seen;
}
