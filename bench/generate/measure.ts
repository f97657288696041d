import { readFileSync } from 'node:fs';
import { request } from './client';
import type { Reply } from './client';

/** The q-quantile (0..1) of sorted-or-not values, nearest rank; 0 when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] as number;
}

export interface Timing {
  p50: number;
  p99: number;
  count: number;
  /** Answers other than 2xx, and network failures. */
  errors: number;
  /**
   * CPU time the API process spent per request (µs), when measured: far steadier than latency on
   * a shared machine, and on SQLite it includes the database's work.
   */
  cpuUs?: number;
}

/** The middle value (the upper one of an even count); 0 when empty. */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

/** Rounds of one measure: p50 and p99 each the median of the rounds', counts and errors summed. */
export function medianTiming(rounds: readonly Timing[]): Timing {
  return {
    p50: median(rounds.map((t) => t.p50)),
    p99: median(rounds.map((t) => t.p99)),
    count: rounds.reduce((n, t) => n + t.count, 0),
    errors: rounds.reduce((n, t) => n + t.errors, 0),
    cpuUs: median(rounds.map((t) => t.cpuUs ?? 0)),
  };
}

/** CPU time (user + system) process `pid` has used so far, in ms (Linux /proc, 100 ticks a second). */
export function processCpuMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `measure`'s timing, with the CPU time process `pid` spent per request (or per `count`) meanwhile. */
export async function withCpu(pid: number | undefined, measure: () => Promise<Timing>): Promise<Timing> {
  const before = processCpuMs(pid);
  const t = await measure();
  return { ...t, cpuUs: t.count > 0 ? ((processCpuMs(pid) - before) * 1000) / t.count : 0 };
}

export function timing(ms: readonly number[], errors = 0): Timing {
  return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), count: ms.length, errors };
}

/**
 * `connections` clients asking `path` back to back for `seconds`, each request timed to the end
 * of its body (performance.now, so sub-millisecond figures keep their precision, which a growth
 * ratio of small latencies needs).
 */
export async function closedLoop(
  url: string,
  path: string,
  token: string,
  seconds: number,
  connections = 10,
): Promise<Timing> {
  const ms: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        let reply: Reply;
        try {
          reply = await request(url, 'GET', path, token);
        } catch {
          errors++;
          continue;
        }
        if (reply.status >= 300) errors++;
        else ms.push(reply.ms);
      }
    }),
  );
  return timing(ms, errors);
}

export const fmt = (ms: number): string => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
