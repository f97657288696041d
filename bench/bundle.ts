import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import type { Page, Response } from '@playwright/test';
import { ROOT, startServer } from './lib';

/**
 * What a learner's browser really downloads: Chromium opens each screen on a fresh profile and
 * we add up the bytes of every JavaScript file as transferred by the real server (brotli from
 * the build's precompressed copies, headers included), beside their decoded size. Also the
 * page-load timings with the CPU slowed 4x, as a stand-in for a cheap phone, the largest
 * contentful paint and the layout shift (CLS) of the screen once its data has arrived.
 */
const BUDGET_KB = 100;

interface Loaded {
  files: number;
  transferredKb: number;
  decodedKb: number;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

async function jsLoadedBy(page: Page, go: () => Promise<void>): Promise<Loaded> {
  const sizes: Promise<{ transferred: number; decoded: number }>[] = [];
  const onResponse = (res: Response) => {
    if (res.request().resourceType() !== 'script' || !res.ok()) return;
    sizes.push(
      Promise.all([res.request().sizes(), res.body()]).then(([s, body]) => ({
        transferred: s.responseBodySize + s.responseHeadersSize,
        decoded: body.length,
      })),
    );
  };
  page.on('response', onResponse);
  await go();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  const all = await Promise.all(sizes);
  return {
    files: all.length,
    transferredKb: kb(all.reduce((sum, x) => sum + x.transferred, 0)),
    decodedKb: kb(all.reduce((sum, x) => sum + x.decoded, 0)),
  };
}

/** Registered before any page script runs: largest contentful paint and layout shifts, buffered. */
const OBSERVE_PAINT = `
  window.__lcp = 0; window.__cls = 0;
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lcp = e.startTime; })
    .observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__cls += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
`;

async function paint(page: Page): Promise<{ lcp: number; cls: number }> {
  // Layout shifts are reported after the frame that made them; give the last one time to land.
  await page.waitForTimeout(500);
  return page.evaluate(() => {
    const w = window as unknown as { __lcp: number; __cls: number };
    return { lcp: Math.round(w.__lcp), cls: Math.round(w.__cls * 1000) / 1000 };
  });
}

async function timings(page: Page): Promise<{ dcl: number; load: number; fcp: number | null }> {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return {
      dcl: Math.round(nav.domContentLoadedEventEnd),
      load: Math.round(nav.loadEventEnd),
      fcp: fcp ? Math.round(fcp.startTime) : null,
    };
  });
}

export async function bundleReport(): Promise<void> {
  execSync('npm run build', { cwd: ROOT, stdio: 'ignore' });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parcours-bundle-'));
  const app = await startServer(
    'apps/api/dist/server.js',
    {
      PORT: '0',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    },
    '/api/contexts/current',
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // The browser must see the tenant host name (localhost), not 127.0.0.1.
  const base = app.url.replace('127.0.0.1', 'localhost');
  try {
    const context = await browser.newContext({ locale: 'fr-FR', serviceWorkers: 'block' });
    await context.addInitScript(OBSERVE_PAINT);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

    const login = await jsLoadedBy(page, async () => {
      await page.goto(`${base}/login`);
    });
    const loginTimes = { ...(await timings(page)), ...(await paint(page)) };

    // Sign in through the real form, then measure a cold load of the home on a fresh page.
    await page.getByRole('textbox', { name: /e-mail/i }).fill('learner@example.com');
    await page.getByRole('textbox', { name: /mot de passe/i }).fill('Learner#2026');
    await page.getByRole('button', { name: /se connecter/i }).click();
    await page.getByRole('heading', { name: /mes formations/i }).waitFor();
    await page.waitForURL(`${base}/`);
    const storage = await context.storageState();
    const homeContext = await browser.newContext({
      locale: 'fr-FR',
      serviceWorkers: 'block',
      storageState: storage,
    });
    await homeContext.addInitScript(OBSERVE_PAINT);
    const homePage = await homeContext.newPage();
    const homeCdp = await homeContext.newCDPSession(homePage);
    await homeCdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const home = await jsLoadedBy(homePage, async () => {
      await homePage.goto(`${base}/`);
      await homePage.getByRole('heading', { name: /mes formations/i }).waitFor();
    });
    const homeTimes = { ...(await timings(homePage)), ...(await paint(homePage)) };

    console.log(
      '\n| screen | JS files | JS transferred kB (budget) | JS decoded kB | DOMContentLoaded ms (4x CPU) | first paint ms | LCP ms | CLS | load ms |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const [name, js, t] of [
      ['/login', login, loginTimes],
      ['/ (signed in)', home, homeTimes],
    ] as const) {
      console.log(
        `| ${name} | ${js.files} | ${js.transferredKb} (${BUDGET_KB}) | ${js.decodedKb} | ${t.dcl} | ${t.fcp} | ${t.lcp} | ${t.cls} | ${t.load} |`,
      );
      if (js.transferredKb > BUDGET_KB) {
        console.log(`\nOVER BUDGET: ${name} transfers ${js.transferredKb} kB of JS (budget ${BUDGET_KB} kB)`);
        process.exitCode = 1;
      }
    }
  } finally {
    await browser.close();
    await app.stop();
  }
}
