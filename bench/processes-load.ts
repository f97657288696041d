import { execSync } from 'node:child_process';
import { ROOT } from './lib';
import type { Server } from './lib';
import type { Calls, Recorded } from './learners-load';
import { LEARNERS, RAMP, SECONDS, learner, recorder } from './learners-load';
import { startRoundRobinProxy } from './proxy';
import { reportTarget } from './targets';
import { generate } from './generate/index';
import { fmt, timing } from './generate/measure';
import { benchDatabase } from './generate/setup';

/**
 * Several processes (issue 30): the **load** part's learners (`BENCH_LOAD_LEARNERS`, 500, for
 * `BENCH_LOAD_SECONDS`, ramp `BENCH_LOAD_RAMP`) on PostgreSQL, once against one API process and
 * once against `BENCH_PROCESSES` (2) processes on the same database behind a round-robin proxy
 * (bench/proxy.ts, in this process). Each configuration gets a fresh database. Prints the p99 of
 * every call for both side by side, with errors; targets: 0 errors in both.
 */
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 2);

export interface CallSummary {
  requests: number;
  p99: number;
  errors: number;
}

/** Per call: requests, p99 and errors of a run (the steady and ramp phases together). */
export function summarise(calls: Calls): Map<string, CallSummary> {
  return new Map(
    [...calls].map(([call, entry]) => {
      const t = timing(entry.ms, entry.errors);
      return [call, { requests: t.count + t.errors, p99: t.p99, errors: t.errors }];
    }),
  );
}

/** Rows of the side-by-side table: every call seen in either run, sorted by name. */
export function sideBySide(
  one: Map<string, CallSummary>,
  many: Map<string, CallSummary>,
): { call: string; one?: CallSummary; many?: CallSummary }[] {
  const calls = [...new Set([...one.keys(), ...many.keys()])].sort((a, b) => a.localeCompare(b));
  return calls.map((call) => ({ call, one: one.get(call), many: many.get(call) }));
}

async function run(processes: number): Promise<Calls> {
  const bench = await benchDatabase('postgres', `parcours_processes_${processes}`);
  const servers: Server[] = [];
  let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>> | undefined;
  const recorded: Recorded = { all: new Map(), ramp: new Map(), steady: new Map() };
  try {
    const writer = bench.writer();
    await generate(writer, bench.template, 0, LEARNERS, { now: Date.now(), fresh: true });
    await writer.analyze();
    await writer.close();
    await bench.settle();
    for (let i = 0; i < processes; i++) servers.push(await bench.start());
    proxy = processes > 1 ? await startRoundRobinProxy(servers.map((s) => s.url)) : undefined;
    const url = proxy?.url ?? servers[0]!.url;
    console.log(
      `\n[processes] ${LEARNERS} learners for ${SECONDS} s on PostgreSQL, ${processes} process${processes > 1 ? 'es behind the proxy' : ''}…`,
    );
    const observe = recorder(recorded, Date.now() + RAMP * 1000);
    await Promise.all(Array.from({ length: LEARNERS }, (_, k) => learner(url, k, observe)));
  } finally {
    await proxy?.close();
    for (const s of servers) await s.stop();
    await bench.drop();
  }
  return recorded.all;
}

export async function processesLoad(): Promise<void> {
  execSync('npm run build -w @parcours/api', { cwd: ROOT, stdio: 'ignore' });
  const one = summarise(await run(1));
  const many = summarise(await run(PROCESSES));
  const cell = (s: CallSummary | undefined) =>
    s ? `${s.requests} | ${fmt(s.p99)} | ${s.errors}` : '– | – | –';
  console.log(
    `\nPostgreSQL, ${LEARNERS} learners: one process and ${PROCESSES} behind a round-robin proxy (ms):`,
  );
  console.log(
    `| call | 1: requests | 1: p99 | 1: errors | ${PROCESSES}: requests | ${PROCESSES}: p99 | ${PROCESSES}: errors |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const row of sideBySide(one, many))
    console.log(`| ${row.call} | ${cell(row.one)} | ${cell(row.many)} |`);
  for (const [label, figures] of [
    ['1 process', one],
    [`${PROCESSES} processes behind a proxy`, many],
  ] as const) {
    const errors = [...figures.values()].reduce((n, s) => n + s.errors, 0);
    const worst = Math.max(0, ...[...figures.values()].map((s) => s.p99));
    reportTarget({
      part: 'processes',
      what: `postgres, ${LEARNERS} learners, ${label}`,
      figure: `${errors} errors, worst call p99 ${fmt(worst)} ms`,
      target: '0 errors',
      met: errors === 0,
    });
  }
}
