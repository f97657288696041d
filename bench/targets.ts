/**
 * Every bench part records the targets beside what it measured here, and `npm run bench`
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
  /** The target as the issue states it ("≤ 100 kB"). Empty when the row is context only. */
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
