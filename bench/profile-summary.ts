import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compareShares, summarizeProfile } from './cpuprofile';
import type { Share, Summary } from './cpuprofile';

/**
 * `npx tsx bench/profile-summary.ts a.cpuprofile [b.cpuprofile] [--top N]`: the top self-time
 * functions and packages of a CPU profile (shares of its busy time, idle left out), or of two side
 * by side — a slow round's and a fast round's, as `BENCH_PROFILE` writes them with the round's
 * figure in the file name (issue 32).
 */
const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const files = args.filter((_, i) => topAt < 0 || (i !== topAt && i !== topAt + 1));
if (files.length < 1 || files.length > 2 || !(top > 0)) {
  console.error('usage: tsx bench/profile-summary.ts a.cpuprofile [b.cpuprofile] [--top N]');
  process.exit(2);
}
const summaries = files.map((f) =>
  summarizeProfile(JSON.parse(readFileSync(f, 'utf8')) as Parameters<typeof summarizeProfile>[0]),
);
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
const ms = (us: number) => (us / 1000).toFixed(1);

function header(name: string, s: Summary): string {
  return `${path.basename(name)}: ${ms(s.totalUs)} ms profiled, ${ms(s.busyUs)} ms busy (${pct(s.totalUs > 0 ? s.busyUs / s.totalUs : 0)})`;
}

function single(title: string, list: readonly Share[]): void {
  console.log(`\n| ${title} | self ms | share of busy |`);
  console.log('|---|---:|---:|');
  for (const s of list.slice(0, top)) console.log(`| ${s.key} | ${ms(s.selfUs)} | ${pct(s.share)} |`);
}

function side(title: string, a: readonly Share[], b: readonly Share[]): void {
  console.log(`\n| ${title} | A share | B share | B − A |`);
  console.log('|---|---:|---:|---:|');
  for (const c of compareShares(a, b, top))
    console.log(`| ${c.key} | ${pct(c.a)} | ${pct(c.b)} | ${((c.b - c.a) * 100).toFixed(1)} pt |`);
}

const [a, b] = summaries;
if (!b) {
  console.log(header(files[0]!, a!));
  single('package', a!.packages);
  single('function', a!.functions);
} else {
  console.log(`A = ${header(files[0]!, a!)}\nB = ${header(files[1]!, b)}`);
  side('package', a!.packages, b.packages);
  side('function', a!.functions, b.functions);
}
