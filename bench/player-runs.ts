import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadResult } from './lib';
import { quantile } from './generate/measure';
import type { Tuple } from './player-floor';
import { closedLoop } from './closed-loop';
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
  if (opts.amount) return answeringRun(name, url, tuples.slice(0, opts.amount), { ...opts, connections });
  let i = 0;
  const instance = autocannon({
    url,
    connections,
    duration: Number(process.env.BENCH_SECONDS ?? 8),
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
  // A run for a time (reads, refusals): autocannon's own rate. Its connections open as the run
  // starts; the warmed steady part leaves the first quarter of the run out.
  const samples: Sample[] = [];
  (
    instance as unknown as {
      on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
    }
  ).on('response', (_client, _status, _bytes, ms) => {
    samples.push({ at: performance.now(), ms });
  });
  const cpu0 = cpuSeconds(opts.serverPid);
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await instance;
  const wall = (performance.now() - t0) / 1000;
  const own = process.cpuUsage(own0);
  const serverCpu = cpuSeconds(opts.serverPid) - cpu0;
  const cpu = { server: serverCpu, own: (own.user + own.system) / 1e6, wall };
  return report(name, samples, connections, cpu, {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  });
}

/** What a run reports, from its samples: the steady part's p99 beside the whole run's. */
function report(
  name: string,
  samples: Sample[],
  connections: number,
  cpu: { server: number; own: number; wall: number },
  whole: { rps: number; p99: number; errors: number; non2xx: number },
): PlayerRun {
  const steady = steadySamples(samples, connections);
  const steadyMs = steady.map((s) => s.ms);
  // No steady part (a run too short): no figure, rather than a p99 of 0 that would meet any target.
  const steadyP99 = steady.length > 0 ? Math.round(quantile(steadyMs, 0.99)) : NaN;
  if (process.env.BENCH_CPU) {
    console.log(
      `${name}: server CPU ${((cpu.server / cpu.wall) * 100).toFixed(0)} %, load generator ${((cpu.own / cpu.wall) * 100).toFixed(0)} % of one core`,
    );
  }
  console.log(
    `${name}: p99 ${whole.p99} ms over the whole run (${samples.length} responses, ${cpu.wall.toFixed(1)} s), ` +
      `${steadyP99} ms over its warmed steady part (${steady.length} responses: without the first quarter ` +
      `of the run's time and the last ${connections}; p50 ${Math.round(quantile(steadyMs, 0.5))} ms, p90 ${Math.round(quantile(steadyMs, 0.9))} ms)`,
  );
  return {
    name,
    rps: Math.round(whole.rps),
    p99: whole.p99,
    errors: whole.errors,
    non2xx: whole.non2xx,
    steadyP99,
    steadyCount: steady.length,
    serverCpuUs: (cpu.server * 1e6) / Math.max(1, samples.length),
  };
}

/**
 * An amount-bound run (answering: each page once) on connections opened and served once before
 * the clock starts (closed-loop.ts says why not autocannon's). Rate = answers between the first
 * and the last one, over the time between them: the steady state with all connections busy.
 */
async function answeringRun(
  name: string,
  url: string,
  tuples: Tuple[],
  opts: {
    method: 'GET' | 'PATCH';
    body?: (t: Tuple) => string;
    serverPid?: number | undefined;
    connections: number;
  },
): Promise<PlayerRun> {
  const requests = tuples.map((t) => ({
    method: opts.method,
    path: `/api/lessons/${t.lessonId}/pages/current`,
    headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
    ...(opts.body ? { body: opts.body(t) } : {}),
  }));
  const cpu0 = cpuSeconds(opts.serverPid);
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await closedLoop(url, opts.connections, requests, {
    method: 'GET',
    path: '/api/health/live',
  });
  const wall = (performance.now() - t0) / 1000;
  const own = process.cpuUsage(own0);
  const serverCpu = cpuSeconds(opts.serverPid) - cpu0;
  const { samples } = result;
  const ats = samples.map((s) => s.at);
  const first = Math.min(...ats);
  const last = Math.max(...ats);
  const non2xx = [...result.statuses].reduce((n, [status, count]) => (status >= 300 ? n + count : n), 0);
  console.log(
    `${name}: ${opts.connections} connections opened and served once in ${result.admissionMs.toFixed(0)} ms`,
  );
  return report(
    name,
    samples,
    opts.connections,
    { server: serverCpu, own: (own.user + own.system) / 1e6, wall },
    {
      rps: samples.length > 1 ? (samples.length - 1) / ((last - first) / 1000) : 0,
      p99: Math.round(
        quantile(
          samples.map((s) => s.ms),
          0.99,
        ),
      ),
      errors: result.errors,
      non2xx,
    },
  );
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
