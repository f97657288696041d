import { execSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, freePort, productionNodeArgs } from './lib';
import { reportTarget } from './targets';

/**
 * Production start: the API as TypeScript through tsx (before) and as the compiled
 * apps/api/dist/server.js with plain node (`npm start` now). For each, the time from spawning
 * the process to the first 200 of `GET /api/contexts/current`, and the resident memory of the
 * process and its children (tsx runs an esbuild service beside node) at that moment and after
 * 2 000 requests. The data dir is seeded once beforehand, so no run pays for the demo import.
 */
const RUNS = Number(process.env.BENCH_START_RUNS ?? 5);

/** Resident set of a process and all its descendants, in MB (Linux /proc). */
function treeRssMb(pid: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // the process ended while we read
    }
  }
  let kb = 0;
  const visit = (p: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return;
    }
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return Math.round(kb / 1024);
}

interface StartFigures {
  ms: number;
  rssReady: number;
  rssAfter: number;
}

async function startOnce(args: string[], env: Record<string, string>): Promise<StartFigures> {
  const port = await freePort();
  const t0 = performance.now();
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/api/contexts/current`;
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${proc.exitCode}`);
      const ok = await fetch(url, { headers: { host: 'localhost' } }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const ms = Math.round(performance.now() - t0);
    const rssReady = treeRssMb(proc.pid as number);
    for (let i = 0; i < 2000; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(url, { headers: { host: 'localhost' } }).then((r) => r.arrayBuffer()),
        ),
      );
    }
    return { ms, rssReady, rssAfter: treeRssMb(proc.pid as number) };
  } finally {
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function startReport(): Promise<void> {
  execSync('npm run build -w @parcours/api', { cwd: ROOT, stdio: 'ignore' });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parcours-start-'));
  const env = {
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
  };
  const variants = [
    { name: 'tsx apps/api/src/server.ts (before)', args: ['--import', 'tsx', 'apps/api/src/server.ts'] },
    // With the flags `npm start` passes (decision 0025), so the figure is what ships.
    {
      name: `node ${productionNodeArgs().join(' ')} apps/api/dist/server.js (npm start)`,
      args: [...productionNodeArgs(), 'apps/api/dist/server.js'],
    },
  ];
  // Seeds the data dir (demo import) and warms the disk cache, outside the figures.
  await startOnce(variants[1]!.args, env);
  const rows: { name: string; runs: StartFigures[] }[] = variants.map((v) => ({ name: v.name, runs: [] }));
  // Interleaved, so a busy moment of the machine weighs on both alike.
  for (let i = 0; i < RUNS; i++) {
    for (const [k, v] of variants.entries()) rows[k]!.runs.push(await startOnce(v.args, env));
  }
  console.log(
    `\n| API process (${RUNS} starts each, medians) | start to first 200 ms | RSS at start MB | RSS after 2 000 requests MB |`,
  );
  console.log('|---|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${median(r.runs.map((x) => x.ms))} | ${median(r.runs.map((x) => x.rssReady))} | ${median(r.runs.map((x) => x.rssAfter))} |`,
    );
  }
  // The target: production runs the compiled JavaScript; before (tsx) and after, side by side.
  const [before, after] = rows.map((r) => ({
    ms: median(r.runs.map((x) => x.ms)),
    rss: median(r.runs.map((x) => x.rssReady)),
    rssAfter: median(r.runs.map((x) => x.rssAfter)),
  })) as [{ ms: number; rss: number; rssAfter: number }, { ms: number; rss: number; rssAfter: number }];
  reportTarget({
    part: 'start',
    what: 'API start to first 200, `npm start` (compiled) vs tsx before',
    figure: `${after.ms} ms (before ${before.ms} ms)`,
    target: 'compiled JS, reported',
    met: after.ms <= before.ms,
  });
  reportTarget({
    part: 'start',
    what: 'API memory at start / after 2 000 requests, compiled vs tsx before',
    figure: `${after.rss} / ${after.rssAfter} MB (before ${before.rss} / ${before.rssAfter} MB)`,
    target: 'reported',
    met: after.rss <= before.rss,
  });
}
