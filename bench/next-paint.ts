import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import type { Page, Response } from '@playwright/test';
import { ROOT, startServer } from './lib';

/**
 * Press Next → next page painted, in Debian's Chromium against the real server. Léa (a demo
 * learner with untouched lessons) first goes through two lessons with the lesson-page calls
 * (empty answers), so every page is answered; the player then opens each lesson's first page
 * and Next is pressed page after page. Each sample runs in the page: a click on Next, then the
 * new page's title in the DOM, then a frame (requestAnimationFrame + a task, i.e. after paint).
 * Measured at full speed and with the CPU slowed 4x (a cheap phone), plus the gzip size of the
 * JavaScript the player route downloads.
 */
const PORT = 3204;
const LEA = { email: 'lea.dubois@example.com', password: 'Lea#Demo2026' };
const COURSES = ['Fractions et pourcentages', "Culture d'entreprise"];
const ROUNDS = 2;

interface Doc {
  data: { id: string; attributes: Record<string, unknown> };
  errors?: { code: string }[];
}

async function call(
  base: string,
  token: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; doc: Doc }> {
  const response = await fetch(`${base}/api/${url}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, doc: (await response.json().catch(() => ({}))) as Doc };
}

/** Answers every page with empty answers; returns the first page's id. */
async function finishLesson(base: string, token: string, lessonId: string): Promise<string> {
  const root = `lessons/${lessonId}/pages`;
  let answer = await call(base, token, 'GET', `${root}/current`);
  let first: string | null = null;
  for (let step = 0; step < 60 && answer.status === 200; step++) {
    let page = answer.doc.data;
    const children = (page.attributes.children ?? []) as { nodeId: string }[];
    if (!page.attributes.block && children.length > 0)
      page = (
        await call(base, token, 'POST', `${root}/current/choose`, {
          pageId: page.id,
          nodeId: children[0]!.nodeId,
        })
      ).doc.data;
    first ??= page.id;
    if (!page.attributes.answeredAt)
      await call(base, token, 'PATCH', `${root}/current`, { pageId: page.id, inputs: { answers: [] } });
    answer = await call(base, token, 'POST', `${root}/next`, { fromPageId: page.id });
  }
  if (!first) throw new Error(`lesson ${lessonId} has no page`);
  return first;
}

/**
 * One press of Next, timed inside the page. A string, not a function: tsx would wrap named
 * functions in a helper the page does not have.
 */
const PRESS_NEXT = `new Promise((resolve, reject) => {
  const title = () => (document.querySelector('main h1') || {}).textContent || '';
  const before = title();
  const button = document.querySelector('.player-footer__next');
  if (!button) return reject(new Error('no Next button'));
  const start = performance.now();
  const observer = new MutationObserver(() => {
    if (title() === before || !title()) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  button.click();
  setTimeout(() => reject(new Error('no new page after ' + before)), 15000);
})`;

function pressNext(page: Page): Promise<number> {
  return page.evaluate(PRESS_NEXT) as Promise<number>;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function nextPaint(): Promise<void> {
  execSync('npm run build -w @parcours/web', { cwd: ROOT, stdio: 'ignore' });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parcours-next-'));
  const app = await startServer(
    'apps/api/src/server.ts',
    {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      LOGIN_RATE_LIMIT: '1000',
    },
    '/api/contexts/current',
  );
  const base = `http://localhost:${PORT}`;
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
  try {
    const login = (await (
      await fetch(`${base}/api/users/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(LEA),
      })
    ).json()) as { access_token: string; user_id: string };
    const token = login.access_token;
    const lessons = (await (
      await fetch(`${base}/api/lessons?include=course`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as {
      data: { id: string; attributes: { courseId: string; state: string } }[];
      included: { type: string; id: string; attributes: { title: string } }[];
    };
    const targets: { lessonId: string; firstPage: string }[] = [];
    for (const title of COURSES) {
      const course = lessons.included.find((r) => r.type === 'courses' && r.attributes.title === title);
      const lesson = lessons.data.find(
        (l) => l.attributes.courseId === course?.id && l.attributes.state === 'AVAILABLE',
      );
      if (lesson)
        targets.push({ lessonId: lesson.id, firstPage: await finishLesson(base, token, lesson.id) });
    }

    const context = await browser.newContext({ locale: 'fr-FR', serviceWorkers: 'block', baseURL: base });
    await context.addInitScript(
      ([t, u]) => {
        window.localStorage.setItem('parcours.token', t);
        window.localStorage.setItem('parcours.userId', u);
      },
      [token, login.user_id] as const,
    );
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);

    // What the player route downloads on a cold load (its chunks on top of the app shell).
    const scripts: Promise<Buffer>[] = [];
    const onResponse = (res: Response) => {
      if (res.request().resourceType() === 'script' && res.ok()) scripts.push(res.body());
    };
    page.on('response', onResponse);
    await page.goto(`/session/${targets[0]!.lessonId}/page/${targets[0]!.firstPage}`);
    await page.locator('.player-footer__next').waitFor();
    await page.waitForLoadState('networkidle');
    page.off('response', onResponse);
    const gzipKb =
      Math.round(
        ((await Promise.all(scripts)).reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0) / 1024) * 10,
      ) / 10;

    const rows: string[] = [];
    for (const rate of [1, 4]) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const samples: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const target of targets) {
          await page.goto(`/session/${target.lessonId}/page/${target.firstPage}`);
          await page.locator('.player-footer__next').waitFor();
          const count = Number(
            /sur (\d+)/.exec((await page.getByText(/^Page \d+ sur \d+$/).textContent()) ?? '')?.[1] ?? 0,
          );
          // The last page leaves the lesson; every other Next shows a page.
          for (let i = 0; i < count - 1; i++) {
            await page.waitForTimeout(250); // past the 200 ms Next debounce
            samples.push(await pressNext(page));
          }
        }
      }
      const sorted = [...samples].sort((a, b) => a - b);
      rows.push(
        `| ${rate}x | ${sorted.length} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 95).toFixed(0)} | ${sorted[0]!.toFixed(0)} | ${sorted[sorted.length - 1]!.toFixed(0)} |`,
      );
    }
    console.log(
      `\nPlayer route: ${scripts.length} JS files, ${gzipKb} kB gzip (cold load of /session/{id}/page/{pageId})`,
    );
    console.log('\n| CPU | samples | Next → painted median ms | p95 ms | min ms | max ms |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const row of rows) console.log(row);
  } finally {
    await browser.close();
    await app.stop();
  }
}
