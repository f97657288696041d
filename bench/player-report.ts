import type { LoadResult } from './lib';
import type { FloorRun } from './player-floor';
import type { PlayerRun } from './player-runs';
import { fixed, littleRatio, median } from './rounds';
import { reportRounds } from './targets';
import type { DbKind } from '@parcours/api/db/db';

/** The player bench's targets table (`player-load.ts`), from its rounds. */

/** Issue 11's answering targets on SQLite (decision 0016), the latency ones restated by issue 32. */
const ANSWER_TARGET = {
  ratioToFloor: { better: 'higher', limit: 0.9 },
  statements: 5,
  /** p99 over the mean wait at 100 connections (Little's law: 100 ÷ rate). */
  little100: { better: 'lower', limit: 2 },
  /** p99 at 20 connections, ms. */
  p99At20: { better: 'lower', limit: 50 },
} as const;

/** What one round measured: the loads beside the bare route by name, answering and its floor. */
export interface PlayerRound {
  loads: Map<string, LoadResult>;
  answer100?: PlayerRun;
  answer20?: PlayerRun;
  floor?: FloorRun;
}

/**
 * Issue 11's answering targets (decision 0016) as issue 32 states them, over the rounds: answering
 * over HTTP against its in-process floor of the same round, the floor's statements, and latency as
 * p99 over the mean wait at 100 connections (Little's law) with p99 at 20 connections.
 */
export function reportAnswering(kind: DbKind, rounds: readonly PlayerRound[]): void {
  const each = (fn: (r: PlayerRound) => number | undefined) => rounds.map((r) => fn(r) ?? NaN);
  const clean = (pick: (r: PlayerRound) => LoadResult | undefined) =>
    rounds.every((r) => {
      const row = pick(r);
      return row !== undefined && row.errors === 0 && row.non2xx === 0;
    });
  const med = (fn: (r: PlayerRound) => number | undefined, digits = 0) => fixed(median(each(fn)), digits);
  const list = (fn: (r: PlayerRound) => number | undefined) =>
    each(fn)
      .map((v) => fixed(v))
      .join(', ');
  // The routes beside the bare one, as ratios of the same round.
  const names = [...new Set(rounds.flatMap((r) => [...r.loads.keys()]))].filter(
    (n) => n !== 'bare Fastify route',
  );
  for (const name of names) {
    reportRounds({
      part: 'player',
      what: `${kind}, ${name}, ratio to the bare route`,
      values: each((r) => {
        const row = r.loads.get(name);
        const bare = r.loads.get('bare Fastify route');
        return row && bare && bare.rps > 0 ? row.rps / bare.rps : undefined;
      }),
      target: null,
      extra: `median ${med((r) => r.loads.get(name)?.rps)} req/s`,
    });
  }
  if (rounds.some((r) => r.floor)) {
    reportRounds({
      part: 'player',
      what: `${kind}, answering floor (in process, no HTTP), answers/s`,
      values: each((r) => r.floor?.rps),
      target: null,
      digits: 0,
      ...(kind === 'sqlite'
        ? { extra: `median ${med((r) => r.floor?.sqliteUs)} µs/answer inside SQLite` }
        : {}),
    });
  }
  if (kind === 'sqlite' && rounds.some((r) => r.floor)) {
    reportRounds({
      part: 'player',
      what: `${kind}, answers per group commit in the floor (answers ÷ BEGIN IMMEDIATE, learning-record batches included)`,
      values: each((r) => r.floor?.perCommit),
      target: null,
      digits: 1,
    });
    reportRounds({
      part: 'player',
      what: `${kind}, SQL statements per answer (floor run, learning records included; BEGIN/COMMIT shared by a group commit)`,
      values: each((r) => r.floor?.statements),
      target: { better: 'lower', limit: ANSWER_TARGET.statements },
      clean: clean((r) => r.floor),
    });
  }
  if (!rounds.some((r) => r.answer100)) return;
  const answered = clean((r) => r.answer100);
  if (rounds.some((r) => r.floor)) {
    // The same ratio by CPU time per answer: the rates depend on the CPU the machine's other
    // processes leave to each side, the CPU an answer costs does not.
    const byCpu = each((r) =>
      r.floor && r.answer100 && r.answer100.serverCpuUs > 0
        ? r.floor.cpuUs / r.answer100.serverCpuUs
        : undefined,
    );
    reportRounds({
      part: 'player',
      what: `${kind}, answering over HTTP, ratio to the floor`,
      values: each((r) =>
        r.answer100 && r.floor && r.floor.rps > 0 ? r.answer100.rps / r.floor.rps : undefined,
      ),
      target: ANSWER_TARGET.ratioToFloor,
      extra:
        `median ${med((r) => r.answer100?.rps)} / ${med((r) => r.floor?.rps)} answers/s; by CPU median ${fixed(median(byCpu), 2)} ` +
        `(${med((r) => r.floor?.cpuUs)} / ${med((r) => r.answer100?.serverCpuUs)} µs per answer)`,
      clean: answered,
    });
  }
  // Latency at 100 connections as the issue restates it: a p99 in ms does not travel between
  // machines (a slower one lengthens every wait), its ratio to the mean wait does. The p99 is the
  // warmed steady part's (steady.ts); the ms and the whole run's are context beside it.
  reportRounds({
    part: 'player',
    what: `${kind}, answering at 100 connections, p99 ÷ mean wait (Little's law: 100 ÷ rate), warmed steady part`,
    values: each((r) => (r.answer100 ? littleRatio(r.answer100.steadyP99, r.answer100.rps, 100) : undefined)),
    target: ANSWER_TARGET.little100,
    extra:
      `p99 median ${med((r) => r.answer100?.steadyP99)} ms (rounds ${list((r) => r.answer100?.steadyP99)}; ` +
      `whole runs ${list((r) => r.answer100?.p99)} ms), mean wait median ${med((r) => (r.answer100 ? 100_000 / r.answer100.rps : undefined))} ms`,
    clean: answered,
  });
  if (rounds.some((r) => r.answer20))
    reportRounds({
      part: 'player',
      what: `${kind}, answering at 20 connections, p99 (warmed steady part)`,
      values: each((r) => r.answer20?.steadyP99),
      target: ANSWER_TARGET.p99At20,
      digits: 0,
      unit: ' ms',
      extra: `whole runs ${list((r) => r.answer20?.p99)} ms, median ${med((r) => r.answer20?.rps)} answers/s, over ${med((r) => r.answer20?.steadyCount)} answers a round`,
      clean: clean((r) => r.answer20),
    });
}
