/** One response of a load run: when it arrived and how long it took (ms, the same clock). */
export interface Sample {
  at: number;
  ms: number;
}

/**
 * The warmed steady part of a closed-loop run of `connections` clients, in arrival order: without
 * the responses that arrived in the first `warmupShare` of the run's time (a cold JIT and the first
 * burst of `connections` requests sent at once, which a learner meets once per server start) and
 * without the last `connections` responses (the drain, fewer than `connections` in flight). What
 * is left is what a learner meets while the server is warm and fully loaded.
 */
export function steadySamples(samples: readonly Sample[], connections: number, warmupShare = 0.25): Sample[] {
  const sorted = [...samples].sort((a, b) => a.at - b.at);
  const kept = sorted.slice(0, Math.max(0, sorted.length - connections));
  if (kept.length === 0) return [];
  const first = sorted[0]!.at;
  const cut = first + (sorted[sorted.length - 1]!.at - first) * warmupShare;
  return kept.filter((s) => s.at >= cut);
}
