/**
 * Rounds (issue 32): a ratio measured once swung from 1.28 to 0.79 between two runs, so every
 * throughput ratio is measured in `BENCH_ROUNDS` rounds (3 by default) that alternate the measured
 * route and its reference, and is reported as the median, the worst round and the spread. A target
 * is met only when its median AND its worst round meet it: a lucky round cannot pass it, and one
 * unlucky round shows instead of hiding behind the median. Pure helpers only (table-driven tests in
 * rounds.test.ts); the parts run the loads.
 */

/** Rounds per ratio: `BENCH_ROUNDS`, 3 by default (at least 1: a smoke run may ask for fewer). */
export function benchRounds(env: Record<string, string | undefined> = process.env): number {
  const n = Math.floor(Number(env.BENCH_ROUNDS ?? 3));
  return Number.isFinite(n) && n >= 1 ? n : 3;
}

/**
 * The order of a round's loads: as given in even rounds (0, 2, …), reversed in odd ones. With a
 * reference and its measured route this is A B, B A, A B…: what the machine's neighbours do over
 * the minutes of a run (a build starting, a cache warming) falls on each side in turn instead of
 * always on the one measured second. Parts use it at two levels: the groups of a round, and the
 * loads within a group.
 */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...items] : [...items].reverse();
}

/** The middle value; the mean of the two middle ones for an even count; NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Max − min of the rounds (not the IQR: with 3 rounds an interquartile range says nothing the
 * extremes do not). NaN when empty.
 */
export function spread(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  return Math.max(...values) - Math.min(...values);
}

/** Which way a figure is good: a rate or a ratio to a floor is better higher, a latency lower. */
export type Better = 'higher' | 'lower';

/** The worst round: the lowest of a figure better higher, the highest of one better lower. */
export function worst(values: readonly number[], better: Better): number {
  if (values.length === 0) return NaN;
  return better === 'higher' ? Math.min(...values) : Math.max(...values);
}

export interface Summary {
  median: number;
  worst: number;
  /** max − min */
  spread: number;
  /** Every round's figure, in round order. */
  rounds: number[];
}

export function summarize(values: readonly number[], better: Better): Summary {
  return {
    median: median(values),
    worst: worst(values, better),
    spread: spread(values),
    rounds: [...values],
  };
}

/** A target as the issue states it: `≥ 0.9` is { better: 'higher', limit: 0.9 }. */
export interface Target {
  better: Better;
  limit: number;
}

export function targetText(target: Target, unit = ''): string {
  return `${target.better === 'higher' ? '≥' : '≤'} ${target.limit}${unit}`;
}

function meets(value: number, target: Target): boolean {
  if (!Number.isFinite(value)) return false;
  return target.better === 'higher' ? value >= target.limit : value <= target.limit;
}

/**
 * Met only when the median and the worst round both meet the target (nothing measured: missed).
 * `clean` is false when a round had errors or unexpected statuses, which no figure excuses.
 */
export function verdict(summary: Summary, target: Target, clean = true): boolean {
  return clean && meets(summary.median, target) && meets(summary.worst, target);
}

/** A figure with `digits` after the point, 'n/a' for one not measured (NaN). */
export function fixed(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

/** "median 0.95, worst 0.88, spread 0.12 (rounds 0.95, 0.88, 1.00)", `digits` after the point. */
export function summaryText(summary: Summary, digits = 2, unit = ''): string {
  const f = (v: number) => fixed(v, digits);
  const n = summary.rounds.length;
  return (
    `median ${f(summary.median)}${unit}, worst ${f(summary.worst)}${unit}, spread ${f(summary.spread)}${unit} ` +
    `(${n} round${n === 1 ? '' : 's'}: ${summary.rounds.map(f).join(', ')})`
  );
}

/**
 * p99 over the mean wait of a closed loop (Little's law: `connections` requests always in flight
 * at `rps` requests a second wait `connections ÷ rps` on average). Unlike a p99 in ms it travels
 * between machines: a slower machine lengthens every wait alike, the tail's share of it stays.
 * NaN when nothing was answered.
 */
export function littleRatio(p99Ms: number, rps: number, connections: number): number {
  if (!(rps > 0) || !(connections > 0)) return NaN;
  return p99Ms / ((connections / rps) * 1000);
}

/** The machine a part ran on, as its first line says: neighbours' load and the CPU. */
export function machineText(loadavg: readonly number[], cpus: readonly { model: string }[]): string {
  const [one, five, fifteen] = loadavg.map((v) => v.toFixed(2));
  return `load average ${one} / ${five} / ${fifteen} (1/5/15 min), ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}`;
}
