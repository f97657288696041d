import { execSync } from 'node:child_process';
import { ROOT } from './lib';
import type { Server } from './lib';
import { roundOrder } from './rounds';
import { reportMachine, reportRounds } from './targets';
import {
  DEMO_LEARNER,
  homeReads,
  lessonsOf,
  playLesson,
  request,
  resetPrograms,
  signIn,
} from './generate/client';
import type { Observe, Session } from './generate/client';
import { generate, learnerEmail } from './generate/index';
import { closedLoop, fmt, medianTiming, timing, withCpu } from './generate/measure';
import type { Timing } from './generate/measure';
import { benchDatabase } from './generate/setup';
import type { DbKind } from './generate/setup';

/**
 * Growth (issue 11): generated learners with a year of history (cohorts of 25 in classes copied
 * from the demo tenant's, lessons, answered pages, scores) are bulk-written into the server's
 * database — 1 000, then 10 000, then 100 000 learners in all (`BENCH_GROWTH_SIZES`) — on SQLite
 * and on PostgreSQL (`BENCH_GROWTH_DATABASES=sqlite,postgres`; PostgreSQL in a database of its own,
 * `parcours_growth`, created on the server of `DATABASE_URL` and dropped at the end). After each
 * size a fresh compiled server is measured for the demo learner and a generated one: the home's
 * two reads and the current page (10 clients back to back, `BENCH_GROWTH_SECONDS` each, in
 * `BENCH_GROWTH_ROUNDS` rounds whose median is kept), then answering fresh pages
 * (`BENCH_GROWTH_ANSWERS` per learner, their programs restarted when they run out). Goal: p50 and
 * p99 at the largest size within 1.5x of the smallest.
 */
const SIZES = (process.env.BENCH_GROWTH_SIZES ?? '1000,10000,100000')
  .split(',')
  .filter((v) => v.trim() !== '')
  .map(Number);
const DATABASES = (process.env.BENCH_GROWTH_DATABASES ?? 'sqlite,postgres').split(',');
const SECONDS = Number(process.env.BENCH_GROWTH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_GROWTH_ROUNDS ?? 3);
// 400 answers per learner and size: the p99 of 100 samples (nearest rank) is their worst, and its growth
// ratio swung from 1.57x to 2.25x between runs; of 400 it is the fourth-worst.
const ANSWERS = Number(process.env.BENCH_GROWTH_ANSWERS ?? 400);
const GOAL = 1.5;

type Call =
  | 'GET /api/lessons (home)'
  | 'GET /api/class-users (home)'
  | 'GET …/pages/current'
  | 'PATCH …/pages/current (answer)';
interface Figure {
  size: number;
  who: string;
  call: Call;
  /** The median of the rounds (medianTiming). */
  t: Timing;
  /** Every round, in round order (answering: one). */
  rounds: Timing[];
}

/** Answers `wanted` fresh pages as `s`, up to 4 lessons at once; restarts programs when none is left. */
async function answering(s: Session, wanted: number): Promise<Timing> {
  const ms: number[] = [];
  let errors = 0;
  const observe: Observe = (call, reply) => {
    if (reply.status >= 300) {
      errors++;
      console.log(`  ${call}: ${reply.status} ${JSON.stringify(reply.json).slice(0, 200)}`);
    } else if (call.startsWith('PATCH')) ms.push(reply.ms);
  };
  // Until `wanted`, or three passes in a row answer nothing even after a restart (a learner with
  // nothing left to play): a fixed number of passes (20) capped a generated learner, whose
  // lessons give a few pages a pass, below 400 answers.
  for (let idle = 0; ms.length < wanted && idle < 3 && errors < 20;) {
    const lessons = await lessonsOf(s);
    const open = lessons.filter((l) => l.attributes.state === 'AVAILABLE');
    const before = ms.length;
    const queue = [...open];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let l = queue.shift(); l && ms.length < wanted; l = queue.shift())
          await playLesson(s, l.id, observe, () => ms.length < wanted);
      }),
    );
    // Nothing answered in a pass: every open lesson is done, start the programs again.
    if (ms.length === before) {
      idle++;
      await resetPrograms(s, lessons, observe);
    } else idle = 0;
  }
  return timing(ms, errors);
}

/** An AVAILABLE lesson of `s` with a current page to read (opened once here, so reads are reads). */
async function currentPagePath(s: Session): Promise<string> {
  for (const l of await lessonsOf(s)) {
    if (l.attributes.state !== 'AVAILABLE') continue;
    const p = `/api/lessons/${l.id}/pages/current`;
    if ((await request(s.url, 'GET', p, s.token)).status === 200) return p;
  }
  throw new Error(`no lesson to read for ${s.userId}`);
}

async function measureSize(app: Server, size: number, out: Figure[]): Promise<void> {
  const { url } = app;
  const pid = app.proc.pid;
  const subjects: [string, Session][] = [
    ['demo learner', await signIn(url, DEMO_LEARNER.email, DEMO_LEARNER.password)],
    ['generated learner', await signIn(url, learnerEmail(0), DEMO_LEARNER.password)],
  ];
  const reads: [string, Session, Call, string][] = [];
  for (const [who, s] of subjects) {
    const home = homeReads(s.userId);
    reads.push([who, s, 'GET /api/lessons (home)', home.lessons]);
    reads.push([who, s, 'GET /api/class-users (home)', home['class-users']]);
    reads.push([who, s, 'GET …/pages/current', await currentPagePath(s)]);
  }
  // A fresh process runs its first requests cold (JIT, statement caches, the OS's file cache).
  for (const [, s, , p] of reads) await closedLoop(url, p, s.token, 1);
  const rounds = new Map<string, Timing[]>();
  for (let round = 0; round < ROUNDS; round++) {
    // The calls in an order reversed from one round to the next (rounds.ts).
    for (const [who, s, call, p] of roundOrder(reads, round)) {
      const key = `${who}\u0000${call}`;
      rounds.set(key, [
        ...(rounds.get(key) ?? []),
        await withCpu(pid, () => closedLoop(url, p, s.token, SECONDS)),
      ]);
    }
  }
  for (const [key, list] of rounds) {
    const [who, call] = key.split('\u0000') as [string, Call];
    out.push({ size, who, call, t: medianTiming(list), rounds: list });
  }
  for (const [who, s] of subjects) {
    // CPU per answer includes the reads around it (current page, next page, lessons).
    const t = await withCpu(pid, () => answering(s, ANSWERS));
    out.push({ size, who, call: 'PATCH …/pages/current (answer)', t, rounds: [t] });
  }
}

async function growOne(kind: DbKind): Promise<void> {
  const bench = await benchDatabase(kind, 'parcours_growth');
  let app: Server | undefined;
  const writer = bench.writer();
  const figures: Figure[] = [];
  try {
    const now = Date.now();
    let inserted = 0;
    for (const size of SIZES) {
      const t0 = performance.now();
      const { pages } = await generate(writer, bench.template, inserted, size, { now });
      inserted = size;
      // What autovacuum would do after such a load: planner statistics for the new rows.
      await writer.analyze();
      const seconds = (performance.now() - t0) / 1000;
      const counts = await writer.counts();
      console.log(
        `\n[growth ${kind}] ${size} generated learners: +${pages} lesson pages in ${seconds.toFixed(1)} s; ` +
          `database: ${counts.users} users, ${counts.lessons} lessons, ${counts.pages} lesson pages`,
      );
      // Each size measured on a settled disk, not during the writeback of its own generation.
      await bench.settle();
      // A fresh server process per size: nothing warm from the smaller database.
      app = await bench.start();
      const t1 = performance.now();
      await measureSize(app, size, figures);
      console.log(`[growth ${kind}] measured in ${((performance.now() - t1) / 1000).toFixed(0)} s`);
      await app.stop();
      app = undefined;
    }
  } finally {
    await writer.close();
    await app?.stop();
    await bench.drop();
  }
  printGrowth(kind, figures);
}

function printGrowth(kind: string, figures: Figure[]): void {
  console.log(
    `\nGrowth on ${kind}, ms (reads: 10 clients, ${SECONDS} s each, median of ${ROUNDS} rounds; answers: ${ANSWERS} fresh pages per learner); ` +
      `API process CPU µs per request (per answer with the reads around it${kind === 'postgres' ? "; PostgreSQL's own work not included" : ''}):`,
  );
  console.log(
    `| learner | call | ${SIZES.map((s) => `p50 @${s} | p99 @${s}`).join(' | ')} | p50 growth | p99 growth | ${SIZES.map((s) => `CPU µs @${s}`).join(' | ')} | CPU growth | errors | ${SIZES.map((s) => `samples @${s}`).join(' | ')} |`,
  );
  console.log(
    `|---|---|${SIZES.map(() => '---:|---:').join('|')}|---:|---:|${SIZES.map(() => '---:').join('|')}|---:|---:|${SIZES.map(() => '---:').join('|')}|`,
  );
  const first = SIZES[0];
  const last = SIZES.at(-1);
  const ratio = (a?: number, b?: number) => (a && b !== undefined && a > 0 ? b / a : NaN);
  for (const key of [...new Set(figures.map((f) => `${f.who}\u0000${f.call}`))]) {
    const [who, call] = key.split('\u0000') as [string, Call];
    const bySize = SIZES.map(
      (size) => figures.find((f) => f.size === size && f.who === who && f.call === call)?.t,
    );
    const a = bySize[0];
    const b = bySize.at(-1);
    const g50 = ratio(a?.p50, b?.p50);
    const g99 = ratio(a?.p99, b?.p99);
    const gCpu = ratio(a?.cpuUs, b?.cpuUs);
    const errors = bySize.reduce((n, t) => n + (t?.errors ?? 0), 0);
    console.log(
      `| ${who} | ${call} | ${bySize.map((t) => (t ? `${fmt(t.p50)} | ${fmt(t.p99)}` : 'n/a | n/a')).join(' | ')} | ${g50.toFixed(2)}x | ${g99.toFixed(2)}x | ` +
        `${bySize.map((t) => (t?.cpuUs ?? 0).toFixed(0)).join(' | ')} | ${gCpu.toFixed(2)}x | ${errors} | ` +
        `${bySize.map((t) => t?.count ?? 0).join(' | ')} |`,
    );
    if (SIZES.length > 1 && a && b) {
      // The growth of each round: round k at the largest size over round k at the smallest (each
      // size's rounds run in the same order on a fresh server); answering is one run a size.
      const small = figures.find((f) => f.size === first && f.who === who && f.call === call)!.rounds;
      const large = figures.find((f) => f.size === last && f.who === who && f.call === call)!.rounds;
      for (const q of ['p50', 'p99'] as const)
        reportRounds({
          part: 'growth',
          what: `${kind}, ${who}, ${call}: ${q} growth ${first}→${last} learners`,
          values: small.map((t, k) => (t[q] > 0 && large[k] ? large[k][q] / t[q] : NaN)),
          target: { better: 'lower', limit: GOAL },
          extra:
            `${q} ${fmt(a[q])}→${fmt(b[q])} ms (medians), CPU/request ${gCpu.toFixed(2)}x, ` +
            `${a.count}/${b.count} samples${errors ? `, ${errors} errors` : ''}`,
          clean: errors === 0,
        });
    }
  }
}

export async function growthBench(): Promise<void> {
  execSync('npm run build -w @parcours/api', { cwd: ROOT, stdio: 'ignore' });
  for (const kind of DATABASES) {
    if (kind !== 'sqlite' && kind !== 'postgres') throw new Error(`BENCH_GROWTH_DATABASES: unknown ${kind}`);
    // Each database's run lasts minutes: the machine's load at the start of each.
    await reportMachine('growth', kind);
    const t0 = performance.now();
    await growOne(kind);
    console.log(`[growth ${kind}] done in ${((performance.now() - t0) / 60_000).toFixed(1)} min`);
  }
}
