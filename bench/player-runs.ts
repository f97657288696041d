import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadResult } from './lib';
import { quantile } from './generate/measure';
import type { Tuple } from './player-floor';
import { steadySamples } from './steady';
import type { Sample } from './steady';

/** The player bench's load runs over HTTP (`player-load.ts`), with their steady part and CPU. */

/** CPU time (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** A load run of the player's routes, with what the targets need beside autocannon's figures. */
export interface PlayerRun extends LoadResult {
  /** p99 (ms) of the run's warmed steady part (`steady.ts`) and the responses it holds. */
  steadyP99: number;
  steadyCount: number;
  /** The server's CPU time per response (µs, from /proc): a figure machine load skews less. */
  serverCpuUs: number;
}

export async function run(
  name: string,
  url: string,
  tuples: Tuple[],
  opts: {
    method: 'GET' | 'PATCH';
    amount?: number;
    body?: (t: Tuple) => string;
    serverPid?: number | undefined;
    connections?: number;
  },
): Promise<PlayerRun> {
  // autocannon refuses more connections than requests (a small slice of a smoke run).
  const connections = Math.min(opts.connections ?? 100, opts.amount ?? Infinity);
  let i = 0;
  const instance = autocannon({
    url,
    connections,
    ...(opts.amount ? { amount: opts.amount } : { duration: Number(process.env.BENCH_SECONDS ?? 8) }),
    requests: [
      {
        setupRequest: (req) => {
          const t = tuples[i++ % tuples.length]!;
          return {
            ...req,
            method: opts.method,
            path: `/api/lessons/${t.lessonId}/pages/current`,
            headers: {
              ...req.headers,
              authorization: `Bearer ${t.token}`,
              'content-type': 'application/json',
            },
            ...(opts.body ? { body: opts.body(t) } : {}),
          };
        },
      },
    ],
  });
  // An amount-bound run lasts a few seconds, and autocannon ends it on its next one-second tick
  // (3000 trivial requests "take" 1.04 s where the last answer came after 0.5 s), so its own
  // duration understates short runs badly. Rate = answers between the first and the last one,
  // over the time between them: the steady state with all connections busy.
  let first = 0;
  let last = 0;
  let answered = 0;
  const samples: Sample[] = [];
  (
    instance as unknown as {
      on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
    }
  ).on('response', (_client, _status, _bytes, ms) => {
    const t = performance.now();
    if (answered++ === 0) first = t;
    last = t;
    samples.push({ at: t, ms });
  });
  const cpu0 = cpuSeconds(opts.serverPid);
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await instance;
  const wall = (performance.now() - t0) / 1000;
  const own = process.cpuUsage(own0);
  const serverCpu = cpuSeconds(opts.serverPid) - cpu0;
  const steady = steadySamples(samples, connections);
  const steadyMs = steady.map((s) => s.ms);
  // No steady part (a run too short): no figure, rather than a p99 of 0 that would meet any target.
  const steadyP99 = steady.length > 0 ? Math.round(quantile(steadyMs, 0.99)) : NaN;
  if (process.env.BENCH_CPU) {
    console.log(
      `${name}: server CPU ${((serverCpu / wall) * 100).toFixed(0)} %, load generator ${(((own.user + own.system) / 1e6 / wall) * 100).toFixed(0)} % of one core`,
    );
  }
  const rps = opts.amount ? (answered - 1) / ((last - first) / 1000) : result.requests.average;
  console.log(
    `${name}: p99 ${result.latency.p99} ms over the whole run (${answered} responses, ${wall.toFixed(1)} s), ` +
      `${steadyP99} ms over its warmed steady part (${steady.length} responses: without the first quarter ` +
      `of the run's time and the last ${connections}; p50 ${Math.round(quantile(steadyMs, 0.5))} ms, p90 ${Math.round(quantile(steadyMs, 0.9))} ms)`,
  );
  return {
    name,
    rps: Math.round(rps),
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    steadyP99,
    steadyCount: steady.length,
    serverCpuUs: (serverCpu * 1e6) / Math.max(1, answered),
  };
}

/** Answers `pages` over HTTP at 100 connections, figures thrown away: a warm-up. */
export async function autocannonWarmUp(url: string, pages: Tuple[]): Promise<void> {
  if (pages.length === 0) return;
  let i = 0;
  await autocannon({
    url,
    connections: Math.min(100, pages.length),
    amount: pages.length,
    requests: [
      {
        setupRequest: (req) => {
          const t = pages[i++ % pages.length]!;
          return {
            ...req,
            method: 'PATCH',
            path: `/api/lessons/${t.lessonId}/pages/current`,
            headers: {
              ...req.headers,
              authorization: `Bearer ${t.token}`,
              'content-type': 'application/json',
            },
            body: t.body,
          };
        },
      },
    ],
  });
}
