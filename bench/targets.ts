import os from 'node:os';
import { machineText, summarize, summaryText, targetText, verdict } from './rounds';
import type { Better, Summary, Target } from './rounds';

/**
 * Every bench part records the issue's targets beside what it measured here, and `npm run bench`
 * prints them all in one table at the end (issue 11: "each target beside its measured figure").
 * A part run alone prints its own rows when it ends, through the same call.
 */
export interface TargetRow {
  /** Which bench part measured it: bundle, lighthouse, api, player, growth, load, start, dashboard. */
  part: string;
  /** What is measured, as a reader of the note would say it ("/login JS transferred"). */
  what: string;
  /** The figure as measured, with its unit ("89.3 kB", "0.62 of floor", "p99 41 ms"). */
  figure: string;
  /** The target as the issue states it ("≤ 60 kB"). Empty when the row is context only. */
  target: string;
  /** true met, false missed, null context (a floor, a reference). */
  met: boolean | null;
}

const rows: TargetRow[] = [];

export function reportTarget(row: TargetRow): void {
  rows.push(row);
}

export function targetRows(): readonly TargetRow[] {
  return rows;
}

export function printTargets(title = 'Targets'): void {
  if (rows.length === 0) return;
  console.log(`\n## ${title}\n`);
  console.log('| part | what | measured | target | met |');
  console.log('|---|---|---:|---:|:---:|');
  for (const r of rows) {
    const met = r.met === null ? '' : r.met ? 'yes' : '**no**';
    console.log(`| ${r.part} | ${r.what} | ${r.figure} | ${r.target} | ${met} |`);
  }
}

/**
 * One figure measured in rounds (rounds.ts): its median, worst round and spread as the row's
 * figure, met only when the median and the worst round both meet `target` (and `clean`: no error
 * in any round). No target: a context row, whose "worst" is taken as `better` says.
 */
export function reportRounds(row: {
  part: string;
  what: string;
  values: readonly number[];
  target: Target | null;
  better?: Better;
  digits?: number;
  unit?: string;
  /** Said after the summary: the rates behind a ratio, say. */
  extra?: string;
  clean?: boolean;
}): Summary {
  const better = row.target?.better ?? row.better ?? 'higher';
  const summary = summarize(row.values, better);
  reportTarget({
    part: row.part,
    what: row.what,
    figure: summaryText(summary, row.digits ?? 2, row.unit ?? '') + (row.extra ? `; ${row.extra}` : ''),
    target: row.target ? targetText(row.target, row.unit ?? '') : '',
    met: row.target ? verdict(summary, row.target, row.clean ?? true) : null,
  });
  return summary;
}

/** The 1-minute load average a part waits for before it measures (`BENCH_SETTLE_LOAD`, 1). */
const SETTLE_LOAD = Number(process.env.BENCH_SETTLE_LOAD ?? 1);
/** How long it waits at most (`BENCH_SETTLE_SECONDS`, 240; 0: not at all). */
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 240);

/**
 * Waits, bounded, until the machine's 1-minute load average is below `SETTLE_LOAD`: a part's own
 * build (or the part before it) leaves the load at 2 or more, and the figures of a run that starts
 * on a busy machine are the neighbours' as much as the code's. Says how long it waited, and
 * whether the load came down.
 */
async function settle(part: string): Promise<void> {
  const started = Date.now();
  while (os.loadavg()[0]! >= SETTLE_LOAD && Date.now() - started < SETTLE_SECONDS * 1000)
    await new Promise((resolve) => setTimeout(resolve, 5000));
  const waited = Math.round((Date.now() - started) / 1000);
  if (waited > 0)
    console.log(
      `[${part}] waited ${waited} s for the load average to fall below ${SETTLE_LOAD}` +
        (os.loadavg()[0]! >= SETTLE_LOAD ? ' (it did not: measured anyway)' : ''),
    );
}

/**
 * The machine at the start of a part, once its load has settled (`settle`), printed and kept as a
 * context row: ratios from a machine whose neighbours keep it busy (load average above its core
 * count) are not the code's.
 */
export async function reportMachine(part: string, of = 'the part'): Promise<string> {
  await settle(part);
  const text = machineText(os.loadavg(), os.cpus());
  console.log(`[${part}] ${of === 'the part' ? '' : `${of}: `}${text}`);
  reportTarget({ part, what: `machine at the start of ${of}`, figure: text, target: '', met: null });
  return text;
}
