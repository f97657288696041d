import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags } from 'lighthouse';
import { playerPath, signIn, startWebApp, type Credentials } from './bundle';

export { playerPath, signIn, type Credentials };
import type { Server } from './lib';
import { reportTarget } from './targets';

/**
 * Lighthouse 12 on the real server (built and compiled, throwaway data dir, demo content), in
 * Debian's Chromium: /login, the demo learner's home and a player page, each with the mobile
 * preset (simulated slow 4G, 4x CPU) and the desktop one, `BENCH_LIGHTHOUSE_RUNS` (2) runs each,
 * median kept. Before each run the browser's HTTP cache, service workers and Cache Storage are
 * emptied by hand (Lighthouse's own storage reset would also drop the signed-in token), so every
 * run is a first visit; signed-in pages get the demo learner's token in localStorage, as the
 * sign-in form leaves it.
 * `BENCH_LIGHTHOUSE_OUT=/some/dir` keeps every report (JSON, open it in the Lighthouse viewer);
 * `BENCH_LIGHTHOUSE_PAGES=login,home,player` and `BENCH_LIGHTHOUSE_PRESETS=mobile,desktop` narrow the run.
 */
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 2);
const CHROME = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT = process.env.BENCH_LIGHTHOUSE_OUT;
const only = (name: string, all: string) => new Set((process.env[name] ?? all).split(','));
const PAGES = only('BENCH_LIGHTHOUSE_PAGES', 'login,home,player');
const PRESETS = only('BENCH_LIGHTHOUSE_PRESETS', 'mobile,desktop');
let reports = 0;

interface Run {
  performance: number;
  accessibility: number;
  lcp: number;
  cls: number;
  fcp: number;
  tbt: number;
  /** Audits below 1 in accessibility, and performance audits that cost time: what to fix. */
  notes: string[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A first visit: empty caches and workers; the token in localStorage when signed in. */
export async function prepare(chrome: LaunchedChrome, base: string, auth: Credentials | null): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const origin = new URL(base).origin;
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    await page.goto(`${base}/favicon.svg`);
    if (auth)
      await page.evaluate(
        ([token, userId]) => {
          localStorage.setItem('parcours.token', token);
          localStorage.setItem('parcours.userId', userId);
        },
        [auth.token, auth.userId] as const,
      );
    await cdp.send('Storage.clearDataForOrigin', {
      origin,
      storageTypes: 'cookies,indexeddb,service_workers,cache_storage',
    });
    await cdp.send('Network.clearBrowserCache');
    // A signed-in learner's browser also holds the HTML session cookie (decision 0046): with it the
    // server draws the home and the player page; without it Lighthouse would time the app drawing
    // them itself, which a returning learner never sees.
    if (auth)
      await cdp.send('Network.setCookie', {
        // Decision 0057: a `__Host-` name, Secure (kept on http://localhost too), Path=/.
        name: '__Host-parcours_html',
        value: auth.token,
        url: base,
        path: '/',
        secure: true,
        httpOnly: true,
        sameSite: 'Lax',
      });
    await page.close();
  } finally {
    // Only the connection ends: the browser stays for Lighthouse.
    await browser.close();
  }
}

async function audit(chrome: LaunchedChrome, url: string, desktop: boolean): Promise<Run> {
  const flags: Flags = {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    disableStorageReset: true,
  };
  const result = await lighthouse(url, flags, desktop ? desktopConfig : undefined);
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits, runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`Lighthouse: ${runtimeError.code} ${runtimeError.message}`);
  if (OUT) {
    mkdirSync(OUT, { recursive: true });
    const name = `${++reports}-${desktop ? 'desktop' : 'mobile'}-${new URL(url).pathname.split('/')[1] || 'home'}.json`;
    writeFileSync(path.join(OUT, name), JSON.stringify(result.lhr));
  }
  const a11yIds = new Set(categories.accessibility?.auditRefs.map((ref) => ref.id));
  const notes = Object.values(audits)
    .filter((a) => {
      if (a.score === null) return false;
      if (a11yIds.has(a.id)) return a.score < 1;
      const savings = a.metricSavings ?? {};
      return (
        a.score < 0.9 && ((savings.LCP ?? 0) > 50 || (savings.FCP ?? 0) > 50 || (savings.CLS ?? 0) > 0.005)
      );
    })
    .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
  return {
    performance: categories.performance?.score ?? 0,
    accessibility: categories.accessibility?.score ?? 0,
    lcp: audits['largest-contentful-paint']?.numericValue ?? 0,
    cls: audits['cumulative-layout-shift']?.numericValue ?? 0,
    fcp: audits['first-contentful-paint']?.numericValue ?? 0,
    tbt: audits['total-blocking-time']?.numericValue ?? 0,
    notes,
  };
}

/**
 * One first visit, tried again once when Chromium's trace came without its navigation start
 * (NO_NAVSTART, NO_FCP: Lighthouse's own "run again" errors, seen now and then on this shared
 * machine); any other error stops the bench.
 */
async function auditWithRetry(
  chrome: LaunchedChrome,
  base: string,
  pathname: string,
  credentials: Credentials | null,
  desktop: boolean,
): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    await prepare(chrome, base, credentials);
    try {
      return await audit(chrome, base + pathname, desktop);
    } catch (error) {
      if (attempt >= 2 || !/NO_NAVSTART|NO_FCP/.test(String(error))) throw error;
      console.log(`(Lighthouse asked to run again on ${pathname}: ${String(error)})`);
    }
  }
}

function summarize(runs: Run[]): Run {
  return {
    performance: median(runs.map((r) => r.performance)),
    // Accessibility does not vary with timing: the worst run counts.
    accessibility: Math.min(...runs.map((r) => r.accessibility)),
    lcp: median(runs.map((r) => r.lcp)),
    cls: median(runs.map((r) => r.cls)),
    fcp: median(runs.map((r) => r.fcp)),
    tbt: median(runs.map((r) => r.tbt)),
    notes: [...new Set(runs.flatMap((r) => r.notes))],
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function report(page: string, { mobile, desktop }: Partial<Record<'mobile' | 'desktop', Run>>): void {
  const rows: [string, string, string, boolean][] = [];
  if (mobile)
    rows.push(
      ['mobile performance', mobile.performance.toFixed(2), '≥ 0.95', mobile.performance >= 0.95],
      ['mobile LCP', s(mobile.lcp), '≤ 1.5 s', mobile.lcp <= 1500],
      ['mobile CLS', mobile.cls.toFixed(3), '≤ 0.02', mobile.cls <= 0.02],
    );
  if (desktop)
    rows.push(
      ['desktop performance', desktop.performance.toFixed(2), '≥ 0.99', desktop.performance >= 0.99],
      ['desktop CLS', desktop.cls.toFixed(3), '≤ 0.02', desktop.cls <= 0.02],
    );
  const a11y = Math.min(...[mobile, desktop].map((run) => run?.accessibility ?? 1));
  rows.push(['accessibility', a11y.toFixed(2), '1.00', a11y >= 1]);
  for (const [what, figure, target, met] of rows)
    reportTarget({ part: 'lighthouse', what: `${page} ${what}`, figure, target, met });
}

/** The built server with demo content and Debian's Chromium for Lighthouse (French, no QUIC). */
export async function startForLighthouse(): Promise<{ app: Server; base: string; chrome: LaunchedChrome }> {
  const { app, base } = await startWebApp();
  const chrome = await launch({
    chromePath: CHROME,
    chromeFlags: ['--headless=new', '--no-sandbox', '--lang=fr-FR', '--disable-quic'],
  });
  return { app, base, chrome };
}

export async function lighthouseReport(): Promise<void> {
  const { app, base, chrome } = await startForLighthouse();
  try {
    const auth = await signIn(base);
    const pages = (
      [
        ['login', '/login', '/login', null],
        ['home', '/ (signed in)', '/', auth],
        ['player', 'player /session/{id}', await playerPath(base, auth), auth],
      ] as const
    ).filter(([key]) => PAGES.has(key));
    console.log(
      `\nLighthouse (median of ${RUNS} runs; mobile = simulated slow 4G and 4x CPU)\n\n` +
        '| page | preset | performance | LCP | CLS | FCP | TBT ms | accessibility |\n|---|---|---:|---:|---:|---:|---:|---:|',
    );
    const notes: string[] = [];
    for (const [, name, pathname, credentials] of pages) {
      const byPreset: Partial<Record<'mobile' | 'desktop', Run>> = {};
      for (const desktop of [false, true]) {
        const preset = desktop ? 'desktop' : 'mobile';
        if (!PRESETS.has(preset)) continue;
        const runs: Run[] = [];
        for (let i = 0; i < RUNS; i++)
          runs.push(await auditWithRetry(chrome, base, pathname, credentials, desktop));
        const m = summarize(runs);
        byPreset[preset] = m;
        console.log(
          `| ${name} | ${preset} | ${m.performance.toFixed(2)} | ${s(m.lcp)} | ${m.cls.toFixed(3)} | ${s(m.fcp)} | ${Math.round(m.tbt)} | ${m.accessibility.toFixed(2)} |`,
        );
        if (m.notes.length) notes.push(`${name} ${preset}: ${m.notes.join(', ')}`);
      }
      report(name, byPreset);
    }
    if (notes.length) console.log(`\nAudits to look at:\n${notes.map((n) => `- ${n}`).join('\n')}`);
  } finally {
    chrome.kill();
    await app.stop();
  }
}
