import { execSync } from 'node:child_process';
import { ROOT } from './lib';
import type { Server } from './lib';
import { reportMachine, reportTarget } from './targets';
import { DEMO_LEARNER, homeReads, playLesson, request, resetPrograms, signIn } from './generate/client';
import type { LessonDoc, Observe, Reply, Session } from './generate/client';
import { generate, learnerEmail } from './generate/index';
import { fmt, processCpuMs, timing } from './generate/measure';
import { random } from './generate/random';
import { benchDatabase } from './generate/setup';
import type { DbKind } from './generate/setup';

/**
 * Load (issue 11): LEARNERS simulated learners for `BENCH_LOAD_SECONDS` (60), on SQLite and on
 * PostgreSQL (`BENCH_LOAD_DATABASES=sqlite,postgres`). Each signs in (the real login endpoint and
 * scrypt hash; the server runs with LOGIN_RATE_LIMIT=100000, see bench/generate/setup.ts), opens
 * the home as the web app does (the tenant call and the two reads, at once), then plays lessons
 * with 1–3 s of thinking before each call — current page, answer, next — back to the home's
 * lessons when a lesson ends, restarting their program when nothing is left to play. Starts are
 * spread over the first RAMP seconds (a class arriving, not one instant), and each plays for
 * SECONDS from then. Targets: no error, p99 of every call ≤ 100 ms.
 */
export const LEARNERS = Number(process.env.BENCH_LOAD_LEARNERS ?? 500);
export const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const DATABASES = (process.env.BENCH_LOAD_DATABASES ?? 'sqlite,postgres').split(',');
// Starts spread over this many seconds (`BENCH_LOAD_RAMP`): each sign-in costs a scrypt hash.
export const RAMP = Number(process.env.BENCH_LOAD_RAMP ?? Math.min(20, SECONDS / 3));
const P99_TARGET = 100;

export interface CallStats {
  ms: number[];
  errors: number;
  statuses: Map<number, number>;
}
export type Calls = Map<string, CallStats>;

/** Every call's figures in all, and per phase: while sign-ins arrive (ramp) and once all play (steady). */
export interface Recorded {
  all: Calls;
  ramp: Calls;
  steady: Calls;
}

function add(calls: Calls, call: string, reply: Reply): void {
  const entry = calls.get(call) ?? { ms: [], errors: 0, statuses: new Map<number, number>() };
  calls.set(call, entry);
  if (reply.status >= 400 || reply.status === 0) {
    entry.errors++;
    entry.statuses.set(reply.status, (entry.statuses.get(reply.status) ?? 0) + 1);
  } else entry.ms.push(reply.ms);
}

/**
 * A call belongs to the phase in which it started (its end minus its time): the ramp until the
 * last learner has arrived, steady after.
 */
export function recorder(recorded: Recorded, rampEndsAt: number): Observe {
  return (call, reply) => {
    add(recorded.all, call, reply);
    add(Date.now() - reply.ms < rampEndsAt ? recorded.ramp : recorded.steady, call, reply);
  };
}

/** A network failure counts as an error of the call (status 0), and the learner goes on. */
async function safely(observe: Observe, call: string, send: () => Promise<Reply>): Promise<Reply | null> {
  try {
    const reply = await send();
    observe(call, reply);
    return reply;
  } catch {
    observe(call, { status: 0, json: null, ms: 0 });
    return null;
  }
}

export async function learner(url: string, k: number, observe: Observe): Promise<void> {
  const rnd = random(7_000 + k);
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  await sleep((k / LEARNERS) * RAMP * 1000);
  // Every learner plays SECONDS from their own arrival: all of them are active at once from the
  // end of the ramp on.
  const end = Date.now() + SECONDS * 1000;
  const think = () => sleep(Math.min(1000 + rnd() * 2000, Math.max(0, end - Date.now())));
  let s: Session;
  try {
    const signedIn = await signIn(url, learnerEmail(k), DEMO_LEARNER.password);
    observe('POST /api/users/login', { status: 200, json: null, ms: signedIn.ms });
    s = signedIn;
  } catch {
    observe('POST /api/users/login', { status: 0, json: null, ms: 0 });
    return;
  }
  const home = homeReads(s.userId);
  // The home: the tenant, the lessons and the classes, asked at once as the web app does.
  const [, lessonsReply] = await Promise.all([
    safely(observe, 'GET /api/contexts/current', () => request(url, 'GET', '/api/contexts/current', null)),
    safely(observe, 'GET /api/lessons (home)', () =>
      request<{ data: LessonDoc[] }>(url, 'GET', home.lessons, s.token),
    ),
    safely(observe, 'GET /api/class-users (home)', () => request(url, 'GET', home['class-users'], s.token)),
  ]);
  let lessons = (lessonsReply?.json as { data?: LessonDoc[] } | null)?.data ?? [];
  while (Date.now() < end) {
    await think();
    const open = lessons.filter((l) => l.attributes.state === 'AVAILABLE');
    const pick = open[Math.floor(rnd() * open.length)];
    if (pick) {
      try {
        await playLesson(s, pick.id, observe, () => Date.now() < end, think);
      } catch {
        observe('GET …/pages/current', { status: 0, json: null, ms: 0 });
      }
    } else await resetPrograms(s, lessons, observe);
    if (Date.now() >= end) break;
    // Back on the home: its lessons again (what the lesson unlocked).
    const reply = await safely(observe, 'GET /api/lessons (home)', () =>
      request<{ data: LessonDoc[] }>(url, 'GET', home.lessons, s.token),
    );
    lessons = (reply?.json as { data?: LessonDoc[] } | null)?.data ?? lessons;
  }
}

/** CPU time of the server process per phase, as a share of one core (Linux /proc). */
interface CpuPhase {
  ms: number;
  seconds: number;
}

async function loadOne(kind: DbKind): Promise<void> {
  const bench = await benchDatabase(kind, 'parcours_load');
  let app: Server | undefined;
  const recorded: Recorded = { all: new Map(), ramp: new Map(), steady: new Map() };
  const cpu: { ramp?: CpuPhase; steady?: CpuPhase; bench?: CpuPhase } = {};
  try {
    const writer = bench.writer();
    await generate(writer, bench.template, 0, LEARNERS, { now: Date.now(), fresh: true });
    await writer.analyze();
    await writer.close();
    await bench.settle();
    app = await bench.start();
    const url = app.url;
    const pid = app.proc.pid;
    console.log(`\n[load ${kind}] ${LEARNERS} learners for ${SECONDS} s (starts spread over ${RAMP} s)…`);
    const t0 = Date.now();
    const rampEndsAt = t0 + RAMP * 1000;
    const observe = recorder(recorded, rampEndsAt);
    const cpu0 = processCpuMs(pid);
    const bench0 = process.cpuUsage();
    // The server's CPU at the end of the ramp: the split between the phases.
    const split = setTimeout(() => {
      cpu.ramp = { ms: processCpuMs(pid) - cpu0, seconds: (Date.now() - t0) / 1000 };
    }, RAMP * 1000);
    await Promise.all(Array.from({ length: LEARNERS }, (_, k) => learner(url, k, observe)));
    clearTimeout(split);
    const total = { ms: processCpuMs(pid) - cpu0, seconds: (Date.now() - t0) / 1000 };
    if (cpu.ramp) cpu.steady = { ms: total.ms - cpu.ramp.ms, seconds: total.seconds - cpu.ramp.seconds };
    const used = process.cpuUsage(bench0);
    cpu.bench = { ms: (used.user + used.system) / 1000, seconds: total.seconds };
  } finally {
    await app?.stop();
    await bench.drop();
  }
  const sorted = (calls: Calls) => [...calls].sort(([a], [b]) => a.localeCompare(b));
  console.log(`\nLoad on ${kind}: ${LEARNERS} learners, ${SECONDS} s, think time 1–3 s (ms):`);
  console.log('| call | requests | p50 | p99 | errors |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [call, entry] of sorted(recorded.all)) {
    const t = timing(entry.ms, entry.errors);
    const statuses = [...entry.statuses].map(([status, n]) => `${n}×${status || 'network'}`).join(', ');
    console.log(
      `| ${call} | ${t.count + t.errors} | ${fmt(t.p50)} | ${fmt(t.p99)} | ${t.errors}${statuses ? ` (${statuses})` : ''} |`,
    );
    reportTarget({
      part: 'load',
      what: `${kind}, ${LEARNERS} learners: ${call} (${t.count + t.errors} requests)`,
      figure: `p50 ${fmt(t.p50)} ms, p99 ${fmt(t.p99)} ms, ${t.errors} errors`,
      target: `0 errors, p99 ≤ ${P99_TARGET} ms`,
      met: t.errors === 0 && t.p99 <= P99_TARGET,
    });
  }
  // The same calls split by phase: the ramp (sign-ins arriving, each a scrypt hash) and the
  // steady playing after it, so that what sign-in costs the other calls shows apart.
  const cell = (entry: CallStats | undefined) => {
    if (!entry) return '– | – | – | –';
    const t = timing(entry.ms, entry.errors);
    return `${t.count + t.errors} | ${fmt(t.p50)} | ${fmt(t.p99)} | ${t.errors}`;
  };
  console.log(`\nBy phase on ${kind} (ramp: the first ${RAMP} s, while learners sign in; steady: after):`);
  console.log(
    '| call | ramp requests | ramp p50 | ramp p99 | ramp errors | steady requests | steady p50 | steady p99 | steady errors |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [call] of sorted(recorded.all))
    console.log(`| ${call} | ${cell(recorded.ramp.get(call))} | ${cell(recorded.steady.get(call))} |`);
  const share = (p: CpuPhase | undefined) =>
    p && p.seconds > 0
      ? `${fmt(p.ms / 1000)} s over ${fmt(p.seconds)} s = ${Math.round(p.ms / p.seconds / 10)} % of a core`
      : 'n/a';
  console.log(
    `\nServer CPU (user + system, /proc) on ${kind}: ramp ${share(cpu.ramp)}; steady ${share(cpu.steady)}.`,
  );
  console.log(`Load generator CPU (this process, same machine): ${share(cpu.bench)}.`);
  for (const phase of ['ramp', 'steady'] as const) {
    reportTarget({
      part: 'load',
      what: `${kind}, ${LEARNERS} learners: server CPU during the ${phase}`,
      figure: share(cpu[phase]),
      target: '',
      met: null,
    });
  }
}

export async function learnersLoad(): Promise<void> {
  execSync('npm run build -w @parcours/api', { cwd: ROOT, stdio: 'ignore' });
  for (const kind of DATABASES) {
    if (kind !== 'sqlite' && kind !== 'postgres') throw new Error(`BENCH_LOAD_DATABASES: unknown ${kind}`);
    // The machine's load at the start of each database's run (its figures are single runs of
    // BENCH_LOAD_SECONDS: this part has no throughput ratio to take in rounds).
    await reportMachine('load', kind);
    await loadOne(kind);
  }
}
