import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import type { Page, Response } from '@playwright/test';
import { ROOT, startServer } from './lib';

/**
 * What a learner's browser really downloads: Chromium opens each screen on a fresh profile and
 * we add up the gzip size of every JavaScript file it fetched (the build's chunks as served,
 * compressed here at level 9 like a static server would). Also the page-load timings with the
 * CPU slowed 4x, as a stand-in for a cheap phone.
 */
const BUDGET_LOGIN_KB = 100;

async function jsLoadedBy(page: Page, go: () => Promise<void>): Promise<{ files: number; gzipKb: number }> {
  const bodies: Promise<Buffer>[] = [];
  const onResponse = (res: Response) => {
    if (res.request().resourceType() === 'script' && res.ok()) bodies.push(res.body());
  };
  page.on('response', onResponse);
  await go();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  const all = await Promise.all(bodies);
  const gzip = all.reduce((sum, b) => sum + gzipSync(b, { level: 9 }).length, 0);
  return { files: all.length, gzipKb: Math.round((gzip / 1024) * 10) / 10 };
}

async function timings(page: Page): Promise<{ dcl: number; load: number; fcp: number | null }> {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return { dcl: Math.round(nav.domContentLoadedEventEnd), load: Math.round(nav.loadEventEnd), fcp: fcp ? Math.round(fcp.startTime) : null };
  });
}

export async function bundleReport(): Promise<void> {
  execSync('npm run build -w @parcours/web', { cwd: ROOT, stdio: 'ignore' });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parcours-bundle-'));
  const app = await startServer(
    'apps/api/src/server.ts',
    { PORT: '0', DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'warn', JWT_SECRET: 'bench-secret-bench-secret-bench-secret' },
    '/api/contexts/current',
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // The browser must see the tenant host name (localhost), not 127.0.0.1.
  const base = app.url.replace('127.0.0.1', 'localhost');
  try {
    const context = await browser.newContext({ locale: 'fr-FR', serviceWorkers: 'block' });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

    const login = await jsLoadedBy(page, async () => {
      await page.goto(`${base}/login`);
    });
    const loginTimes = await timings(page);

    // Sign in through the real form, then measure a cold load of the home on a fresh page.
    await page.getByRole('textbox', { name: /e-mail/i }).fill('learner@example.com');
    await page.getByRole('textbox', { name: /mot de passe/i }).fill('Learner#2026');
    await page.getByRole('button', { name: /se connecter/i }).click();
    await page.getByRole('heading', { name: /mes formations/i }).waitFor();
    await page.waitForURL(`${base}/`);
    const storage = await context.storageState();
    const homeContext = await browser.newContext({ locale: 'fr-FR', serviceWorkers: 'block', storageState: storage });
    const homePage = await homeContext.newPage();
    const homeCdp = await homeContext.newCDPSession(homePage);
    await homeCdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const home = await jsLoadedBy(homePage, async () => {
      await homePage.goto(`${base}/`);
      await homePage.getByRole('heading', { name: /mes formations/i }).waitFor();
    });
    const homeTimes = await timings(homePage);

    console.log('\n| screen | JS files | JS gzip kB | budget | DOMContentLoaded ms (4x CPU) | first paint ms | load ms |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    console.log(`| /login | ${login.files} | ${login.gzipKb} | ${BUDGET_LOGIN_KB} | ${loginTimes.dcl} | ${loginTimes.fcp} | ${loginTimes.load} |`);
    console.log(`| / (signed in) | ${home.files} | ${home.gzipKb} | — | ${homeTimes.dcl} | ${homeTimes.fcp} | ${homeTimes.load} |`);
    if (login.gzipKb > BUDGET_LOGIN_KB) {
      console.log(`\nOVER BUDGET: /login loads ${login.gzipKb} kB of gzip JS (budget ${BUDGET_LOGIN_KB} kB)`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
    await app.stop();
  }
}
