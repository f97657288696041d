import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { DEMO_LEARNER } from './bundle';
import { dropDatabase, freshDatabase, pgUrl } from './generate/postgres-admin';
import { ROOT, startServer } from './lib';
import {
  CONNECTIONS,
  PAGES_TARGET,
  bytesPerResponse,
  isDrawnPage,
  kilobytes,
  loadKey,
  pageRatio,
  roundPlan,
  type PageLoad,
  type Subject,
} from './pages-figures';
import { benchRounds, fixed, median } from './rounds';
import { reportMachine, reportRounds, reportTarget } from './targets';

/**
 * Issue 37 item 3 (decision 0061): the drawn home and a drawn player page beside the same
 * learner's `GET /api/lessons` sent as the web app sends it, in the same rounds, at 1 and 10
 * connections: pages/s, p50 and p99, bytes as transferred. The built app (web and API, as
 * `npm start` serves it) on a fresh data directory with the demo content; autocannon here.
 * Every request carries the headers a browser sends: the page its HTML cookie and Fetch
 * Metadata, the read its bearer; both Accept-Language and Accept-Encoding.
 *
 * `BENCH_PAGES_DATABASES=sqlite,postgres` (SQLite by default); `BENCH_SECONDS` per load (8);
 * `BENCH_ROUNDS` rounds (3); `BENCH_PAGES_BUILT=1` uses the build already there (a smoke run).
 */
const ROUNDS = benchRounds();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const DATABASES = (process.env.BENCH_PAGES_DATABASES ?? 'sqlite').split(',').filter(Boolean);
const PG_DATABASE = 'parcours_pages';
const HTML_COOKIE = '__Host-parcours_html';
/** What a current browser sends (Chromium's values). */
const BROWSER = {
  'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8',
  'accept-encoding': 'gzip, deflate, br, zstd',
};

async function measure(url: string, connections: number, headers: Record<string, string>): Promise<PageLoad> {
  const result = await autocannon({ url, connections, duration: SECONDS, headers });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: bytesPerResponse(result.throughput.total, result.requests.total),
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export async function pagesLoad(): Promise<void> {
  if (process.env.BENCH_PAGES_BUILT !== '1') execSync('npm run build', { cwd: ROOT, stdio: 'ignore' });
  for (const kind of DATABASES) {
    if (kind !== 'sqlite' && kind !== 'postgres') throw new Error(`BENCH_PAGES_DATABASES: unknown ${kind}`);
    await reportMachine('pages', kind);
    await pagesLoadOn(kind);
  }
}

async function pagesLoadOn(kind: 'sqlite' | 'postgres'): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parcours-bench-pages-'));
  const databaseUrl = kind === 'postgres' ? pgUrl(PG_DATABASE) : undefined;
  if (databaseUrl) await freshDatabase(PG_DATABASE);
  const app = await startServer(
    'apps/api/dist/server.js',
    {
      PORT: '0',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      LOGIN_RATE_LIMIT: '1000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    '/api/contexts/current',
  );
  try {
    const host = 'localhost';
    const login = await fetch(`${app.url}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', host },
      body: JSON.stringify(DEMO_LEARNER),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const { access_token: token, user_id: userId } = (await login.json()) as {
      access_token: string;
      user_id: string;
    };
    const api = { ...BROWSER, host, authorization: `Bearer ${token}`, accept: 'application/json' };
    // The home's read exactly as apps/web/src/features/home/api/home-queries.ts writes it.
    const lessonsUrl = `/api/lessons?${new URLSearchParams({ 'filter[userId]': userId, include: 'course' })}`;
    // A lesson already opened: a page load opens none (decision 0057), the app's first read does.
    const lessons = (await (await fetch(app.url + lessonsUrl, { headers: api })).json()) as {
      data: { id: string; attributes: { state: string } }[];
    };
    const lesson = lessons.data.find((l) => l.attributes.state === 'AVAILABLE') ?? lessons.data[0];
    if (!lesson) throw new Error('the demo learner has no lesson');
    const opened = await fetch(`${app.url}/api/lessons/${lesson.id}/pages/current`, { headers: api });
    if (!opened.ok) throw new Error(`opening ${lesson.id}: ${opened.status}`);
    const page = {
      ...BROWSER,
      host,
      cookie: `${HTML_COOKIE}=${token}`,
      accept: 'text/html,application/xhtml+xml',
      'sec-fetch-site': 'none',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    };
    const subjects: Record<Subject, { what: string; url: string; headers: Record<string, string> }> = {
      lessons: { what: 'GET /api/lessons (home read)', url: app.url + lessonsUrl, headers: api },
      home: { what: 'drawn home /', url: `${app.url}/`, headers: page },
      player: { what: 'drawn player /session/{id}', url: `${app.url}/session/${lesson.id}`, headers: page },
    };
    // A page that is not drawn would bench the shell: checked before any load.
    for (const name of ['home', 'player'] as const) {
      const html = await (await fetch(subjects[name].url, { headers: subjects[name].headers })).text();
      if (!isDrawnPage(html)) throw new Error(`${subjects[name].what} is not drawn for the learner`);
    }

    const rounds: Map<string, PageLoad>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const results = new Map<string, PageLoad>();
      for (const planned of roundPlan(round)) {
        const subject = subjects[planned.subject];
        results.set(loadKey(planned), await measure(subject.url, planned.connections, subject.headers));
      }
      rounds.push(results);
      console.log(`\npages on ${kind}, round ${round + 1} of ${ROUNDS}:`);
      printRound(results, subjects);
    }
    reportPages(kind, rounds);
  } finally {
    await app.stop();
    if (databaseUrl) await dropDatabase(PG_DATABASE);
  }
}

function printRound(results: Map<string, PageLoad>, subjects: Record<Subject, { what: string }>): void {
  console.log(
    '\n| what | connections | req/s | ratio to lessons | p50 ms | p99 ms | bytes | errors | non-2xx |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const connections of CONNECTIONS) {
    const reference = results.get(`lessons@${connections}`);
    for (const subject of ['lessons', 'home', 'player'] as const) {
      const r = results.get(`${subject}@${connections}`);
      if (!r) continue;
      console.log(
        `| ${subjects[subject].what} | ${connections} | ${r.rps} | ${fixed(pageRatio(r, reference), 2)} | ` +
          `${r.p50} | ${r.p99} | ${kilobytes(r.bytes)} | ${r.errors} | ${r.non2xx} |`,
      );
    }
  }
}

/** Each page's ratio to the read and its latency, as median and worst round (rounds.ts). */
function reportPages(kind: string, rounds: readonly Map<string, PageLoad>[]): void {
  const each = (fn: (r: Map<string, PageLoad>) => number) => rounds.map(fn);
  const clean = (key: string) =>
    rounds.every((r) => {
      const m = r.get(key);
      return m !== undefined && m.errors === 0 && m.non2xx === 0;
    });
  const med = (key: string, field: keyof PageLoad) => median(rounds.map((r) => r.get(key)?.[field] ?? NaN));
  for (const connections of CONNECTIONS) {
    const reference = `lessons@${connections}`;
    reportTarget({
      part: 'pages',
      what: `${kind}, GET /api/lessons (home read) at ${connections} connection${connections === 1 ? '' : 's'}`,
      figure:
        `median ${fixed(med(reference, 'rps'))} req/s, p50 ${fixed(med(reference, 'p50'))} ms, ` +
        `p99 ${fixed(med(reference, 'p99'))} ms, ${kilobytes(med(reference, 'bytes'))}`,
      target: '',
      met: null,
    });
    for (const subject of ['home', 'player'] as const) {
      const key = `${subject}@${connections}`;
      const name = subject === 'home' ? 'drawn home' : 'drawn player page';
      reportRounds({
        part: 'pages',
        what: `${kind}, ${name} at ${connections} connection${connections === 1 ? '' : 's'}, ratio to GET /api/lessons`,
        values: each((r) => pageRatio(r.get(key), r.get(reference))),
        target: PAGES_TARGET.ratio,
        extra:
          `median ${fixed(med(key, 'rps'))} pages/s, p50 ${fixed(med(key, 'p50'))} ms, ` +
          `${kilobytes(med(key, 'bytes'))} a page as transferred`,
        clean: clean(key) && clean(reference),
      });
      reportRounds({
        part: 'pages',
        what: `${kind}, ${name}, p99 at ${connections} connection${connections === 1 ? '' : 's'}`,
        values: each((r) => r.get(key)?.p99 ?? NaN),
        // The latency target is at 10 connections; at 1 the figure is context.
        target: connections === 10 ? PAGES_TARGET.p99 : null,
        better: 'lower',
        digits: 0,
        unit: ' ms',
        clean: clean(key),
      });
    }
  }
}
