import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import type { LoadResult } from './lib';
import { load, printTable, startServer } from './lib';
import type { Server } from './lib';
import { openDb } from '@parcours/api/db/db';
import { learnerStatistics } from '@parcours/api/modules/statistics/service';
import { generate, learnerEmail, readTemplate, sqliteWriter } from './generate/index';
import { median as upperMedian } from './generate/measure';
import { benchRounds, fixed, median, roundOrder } from './rounds';
import { reportMachine, reportRounds } from './targets';

/**
 * The learner dashboard's reads (issue 9).
 * (a) Each call under 100 connections beside the bare Fastify route of the same run (ratio), on
 *     the demo content, signed in as the demo learner.
 * (b) Growth: learners with a year of generated history are bulk-inserted into the same SQLite
 *     database (1 000, then 10 000, then 100 000 in all, `BENCH_DASHBOARD_SIZES` to change) and
 *     the calls' p50/p99 are measured for one learner at each size: the demo learner and one
 *     generated learner. Goal: flat within 1.5x from the smallest size to the largest.
 * Calls that answer 404 (a tab not in this tree yet) are listed as skipped.
 */
const SIZES = (process.env.BENCH_DASHBOARD_SIZES ?? '1000,10000,100000')
  .split(',')
  .filter((v) => v.trim() !== '')
  .map(Number);
const GROWTH_SECONDS = Number(process.env.BENCH_GROWTH_SECONDS ?? 3);
const GROWTH_CONNECTIONS = 10;
/** Issue 9's goal: p50 and p99 at the largest size within 1.5x of the smallest. */
const GROWTH_GOAL = 1.5;
// Rounds over all calls, figures are the median of the rounds: the machine is shared and one
// noisy second should not decide a growth factor.
const GROWTH_ROUNDS = Number(process.env.BENCH_GROWTH_ROUNDS ?? 3);
/** Rounds of the (a) ratios to the bare route (rounds.ts). */
const ROUNDS = benchRounds();
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret';
const DEMO = { email: 'learner@example.com', password: 'Learner#2026' };

/** The dashboard's reads, as apps/web/src/features/dashboard/*\/api sends them. */
function dashboardCalls(userId: string): [string, string][] {
  return [
    ['statistics 1 week', '/api/statistics?filter[period]=1w&filter[tz]=Europe%2FParis'],
    ['statistics 1 year', '/api/statistics?filter[period]=1y&filter[tz]=Europe%2FParis'],
    ['competency-levels', '/api/competency-levels'],
    ['category-progress', '/api/category-progress'],
    ['certification-items', '/api/certification-items'],
    [
      'log-book-records',
      `/api/log-book-records?filter[studentId]=${userId}&sort=-createdAt&include=user,attachments&page[number]=1&page[size]=100`,
    ],
  ];
}

async function signIn(
  url: string,
  email: string,
  password: string,
): Promise<{ token: string; userId: string }> {
  const res = await fetch(`${url}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', host: 'localhost' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { access_token: string; user_id: string };
  return { token: body.access_token, userId: body.user_id };
}

/** The calls this tree answers with 200 (others are reported and skipped). */
async function liveCalls(url: string, token: string, userId: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const [name, call] of dashboardCalls(userId)) {
    const res = await fetch(url + call, { headers: { authorization: `Bearer ${token}`, host: 'localhost' } });
    await res.arrayBuffer();
    if (res.ok) out.push([name, call]);
    else console.log(`skipped ${name}: ${res.status}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Measures

interface Latency {
  name: string;
  p50: number;
  p99: number;
  rps: number;
  non2xx: number;
}

async function latency(name: string, url: string, token: string): Promise<Latency> {
  const r = await autocannon({
    url,
    connections: GROWTH_CONNECTIONS,
    duration: GROWTH_SECONDS,
    headers: { authorization: `Bearer ${token}`, host: 'localhost' },
  });
  return {
    name,
    p50: r.latency.p50,
    p99: r.latency.p99,
    rps: Math.round(r.requests.average),
    non2xx: r.non2xx,
  };
}

async function warmUp(
  url: string,
  calls: readonly (readonly [string, string])[],
  token: string,
): Promise<void> {
  for (const [, call] of calls) {
    await autocannon({
      url: url + call,
      connections: 10,
      duration: 1,
      headers: { authorization: `Bearer ${token}`, host: 'localhost' },
    });
  }
}

function planOf(db: SQLite.Database, userId: string, contextId: string): string {
  // The statistics query's shape (apps/api/src/modules/statistics/repository.ts), for the record.
  const rows = db
    .prepare(
      `explain query plan select case when lp.answered_at < ? then 0 else 1 end as bucket, count(*), sum(lp.time_spent)
         from lesson_pages lp join lessons l on l.id = lp.lesson_id
        where l.user_id = ? and l.context_id = ? and lp.answered_at is not null and lp.answered_at >= ? and lp.answered_at < ? group by 1`,
    )
    .all('2026-06-01', userId, contextId, '2025-01-01', '2027-01-01') as { detail: string }[];
  return rows.map((r) => r.detail).join('; ');
}

export async function dashboardLoad(): Promise<void> {
  await reportMachine('dashboard');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parcours-bench-dashboard-'));
  const env = {
    PORT: '0',
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    JWT_SECRET,
    LOGIN_RATE_LIMIT: '100000',
  };
  let app: Server | undefined = await startServer('apps/api/src/server.ts', env, '/api/contexts/current');
  const bare = await startServer('bench/bare-server.ts', { PORT: '0' }, '/bare');
  try {
    // (a) Throughput beside the bare route, demo content.
    const demo = await signIn(app.url, DEMO.email, DEMO.password);
    const calls = await liveCalls(app.url, demo.token, demo.userId);
    // A fresh process runs its first requests cold (JIT, statement caches): warm every call up
    // first so that the first one measured is not penalised for it.
    await warmUp(app.url, calls, demo.token);
    // Each call's rate over the bare route's in the same round, BENCH_ROUNDS rounds, the bare
    // route first in even rounds and last in odd ones (rounds.ts).
    const loads: [string, () => Promise<LoadResult>][] = [
      ['bare', () => load('bare Fastify route', `${bare.url}/bare`)],
      ...calls.map(
        ([name, call]) =>
          [
            name,
            () =>
              load(`GET ${name}`, app!.url + call, {
                headers: { authorization: `Bearer ${demo.token}`, host: 'localhost' },
              }),
          ] as [string, () => Promise<LoadResult>],
      ),
    ];
    const rounds: Map<string, LoadResult>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const results = new Map<string, LoadResult>();
      for (const [key, fn] of roundOrder(loads, round)) results.set(key, await fn());
      rounds.push(results);
      console.log(
        `\nDashboard calls, 100 connections, demo learner, demo content (SQLite), round ${round + 1} of ${ROUNDS}:`,
      );
      printTable([...results.values()], results.get('bare')!);
    }
    for (const [name] of calls) {
      reportRounds({
        part: 'dashboard',
        what: `GET ${name}, ratio to the bare route (demo learner)`,
        values: rounds.map((r) => {
          const row = r.get(name);
          const base = r.get('bare');
          return row && base && base.rps > 0 ? row.rps / base.rps : NaN;
        }),
        target: null,
        extra: `median ${fixed(median(rounds.map((r) => r.get(name)?.rps ?? NaN)))} req/s${rounds.some((r) => (r.get(name)?.non2xx ?? 0) > 0) ? ', non-2xx answers!' : ''}`,
      });
    }

    // (b) Growth.
    const file = path.join(dataDir, 'parcours.sqlite');
    const handle = openDb({ sqliteFile: file });
    const template = await readTemplate(handle.db, demo.userId);
    await handle.close();
    // Generated learners (bench/generate): cohorts of 25 in copies of the demo tenant's classes.
    const writer = sqliteWriter(file);
    const db = new SQLite(file, { readonly: true });
    const now = Date.now();
    const table: { size: number; who: string; l: Latency }[] = [];
    const inProcess: { size: number; name: string; p50: number; p99: number }[] = [];
    let inserted = 0;
    for (const size of SIZES) {
      const started = Date.now();
      const { pages } = await generate(writer, template, inserted, size, { now });
      const seconds = (Date.now() - started) / 1000;
      inserted = size;
      const counts = await writer.counts();
      console.log(
        `\n${size} generated learners: +${pages} pages in ${seconds.toFixed(1)} s; database: ${counts.users} users, ${counts.lessons} lessons, ${counts.pages} lesson pages`,
      );
      // A fresh server process per size: nothing warm from the smaller database.
      await app.stop();
      app = await startServer('apps/api/src/server.ts', env, '/api/contexts/current');
      const gen = await signIn(app.url, learnerEmail(0), DEMO.password);
      const genCalls = await liveCalls(app.url, gen.token, gen.userId);
      const demoNow = await signIn(app.url, DEMO.email, DEMO.password);
      const subjects = [
        ['demo learner', demoNow.token, calls],
        ['generated learner', gen.token, genCalls],
      ] as const;
      for (const [, token, list] of subjects) await warmUp(app.url, list, token);
      // Every call of both learners, in an order reversed from one round to the next (rounds.ts).
      const measures = subjects.flatMap(([who, token, list]) =>
        list.map(([name, call]) => ({ who, token, name, call })),
      );
      for (let round = 0; round < GROWTH_ROUNDS; round++) {
        for (const { who, token, name, call } of roundOrder(measures, round))
          table.push({ size, who, l: await latency(name, app.url + call, token) });
      }
      inProcess.push(
        ...(await statisticsInProcess(dataDir, template.contextId, demo.userId, gen.userId, size)),
      );
      console.log(`statistics query plan: ${planOf(db, gen.userId, template.contextId)}`);
    }
    db.close();
    await writer.close();

    console.log(
      `\nLatency (ms) by database size, ${GROWTH_CONNECTIONS} connections, ${GROWTH_SECONDS} s per call, median of ${GROWTH_ROUNDS} rounds:`,
    );
    console.log(
      `| learner | call | ${SIZES.map((s) => `p50 @${s} | p99 @${s}`).join(' | ')} | p50 growth | p99 growth |`,
    );
    console.log(`|---|---|${SIZES.map(() => '---:|---:').join('|')}|---:|---:|`);
    const keys = [...new Set(table.map((r) => `${r.who}\u0000${r.l.name}`))];
    for (const key of keys) {
      const [who, name] = key.split('\u0000') as [string, string];
      const bySize = SIZES.map((s) =>
        medianOf(table.filter((r) => r.size === s && r.who === who && r.l.name === name).map((r) => r.l)),
      );
      const first = bySize[0];
      const last = bySize.at(-1);
      const growth = (a?: number, b?: number) => (a && b ? `${(b / a).toFixed(2)}x` : 'n/a');
      const bad = bySize.some((l) => l && l.non2xx > 0) ? ' (non-2xx!)' : '';
      console.log(
        `| ${who} | ${name}${bad} | ${bySize.map((l) => (l ? `${l.p50} | ${l.p99}` : 'n/a | n/a')).join(' | ')} | ${growth(first?.p50, last?.p50)} | ${growth(first?.p99, last?.p99)} |`,
      );
      // The growth of each round (round k at the largest size over round k at the smallest: each
      // size's rounds run in the same order on a fresh server), median and worst round.
      const roundsAt = (size: number | undefined) =>
        table.filter((r) => r.size === size && r.who === who && r.l.name === name).map((r) => r.l);
      const small = roundsAt(SIZES[0]);
      const large = roundsAt(SIZES.at(-1));
      if (SIZES.length > 1)
        for (const q of ['p50', 'p99'] as const)
          reportRounds({
            part: 'dashboard',
            what: `${who}, ${name}: ${q} growth ${SIZES[0]}→${SIZES.at(-1)} learners`,
            values: small.map((a, k) => (a[q] > 0 && large[k] ? large[k][q] / a[q] : NaN)),
            target: { better: 'lower', limit: GROWTH_GOAL },
            extra: `${q} median ${median(small.map((l) => l[q]))} → ${median(large.map((l) => l[q]))} ms`,
            clean: [...small, ...large].every((l) => l.non2xx === 0),
          });
    }
    console.log('\nGET /api/statistics without HTTP (the service on the same file, in this process), ms:');
    console.log(
      `| learner, period | ${SIZES.map((s) => `p50 @${s} | p99 @${s}`).join(' | ')} | p50 growth |`,
    );
    console.log(`|---|${SIZES.map(() => '---:|---:').join('|')}|---:|`);
    for (const name of [...new Set(inProcess.map((r) => r.name))]) {
      const bySize = SIZES.map((s) => inProcess.find((r) => r.size === s && r.name === name));
      const a = bySize[0]?.p50;
      const b = bySize.at(-1)?.p50;
      console.log(
        `| ${name} | ${bySize.map((r) => (r ? `${r.p50.toFixed(3)} | ${r.p99.toFixed(3)}` : 'n/a | n/a')).join(' | ')} | ${a && b ? `${(b / a).toFixed(2)}x` : 'n/a'} |`,
      );
    }
  } finally {
    await bare.stop();
    await app?.stop();
  }
}

/** The median round of a call (by p50; its p99 is the median of the rounds' p99s). */
function medianOf(rounds: Latency[]): Latency | undefined {
  const first = rounds[0];
  if (!first) return undefined;
  return {
    name: first.name,
    p50: upperMedian(rounds.map((r) => r.p50)),
    p99: upperMedian(rounds.map((r) => r.p99)),
    rps: upperMedian(rounds.map((r) => r.rps)),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
  };
}

/**
 * The statistics service itself (the SQL and the folding, no HTTP), timed one call at a time:
 * what grows with the database, if anything, shows here without the shared machine's HTTP noise.
 */
async function statisticsInProcess(
  dataDir: string,
  contextId: string,
  demoId: string,
  genId: string,
  size: number,
): Promise<{ size: number; name: string; p50: number; p99: number }[]> {
  const handle = openDb({ sqliteFile: path.join(dataDir, 'parcours.sqlite') });
  const out: { size: number; name: string; p50: number; p99: number }[] = [];
  try {
    for (const [who, userId] of [
      ['demo learner', demoId],
      ['generated learner', genId],
    ] as const) {
      for (const period of ['1w', '1y'] as const) {
        const times: number[] = [];
        for (let i = 0; i < 400; i++) {
          const t = performance.now();
          await learnerStatistics(handle.db, contextId, userId, period, 'Europe/Paris', new Date());
          if (i >= 50) times.push(performance.now() - t);
        }
        times.sort((x, y) => x - y);
        out.push({
          size,
          name: `${who}, ${period}`,
          p50: times[Math.floor(times.length * 0.5)] ?? 0,
          p99: times[Math.floor(times.length * 0.99)] ?? 0,
        });
      }
    }
  } finally {
    await handle.close();
  }
  return out;
}
