import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';

export const ROOT = path.resolve(import.meta.dirname, '..');

export interface Server {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** A port free on loopback right now, so several benchmarks (or a test run) can share the machine. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The node flags of the API's production start (`npm start` in apps/api/package.json, say
 * `node --max-semi-space-size=… dist/server.js`): what lies between `node` and the entry. Every
 * bench that starts the compiled server passes them (startServer does for `dist/server.js`), so
 * the bench measures what ships; the script stays the one place they are set.
 */
export function productionNodeArgs(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'apps/api/package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node')
    throw new Error(`apps/api start script: expected "node …", got ${pkg.scripts.start}`);
  return words.slice(1, -1);
}

/**
 * The bench's environment for a server, without DATABASE_URL and PG_SCHEMA unless the part gives
 * them: a DATABASE_URL in the shell (the tests' server, which growth and load also read to find
 * PostgreSQL) would otherwise turn every "SQLite" server of the bench into a PostgreSQL one.
 */
function inherited(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  if (!('DATABASE_URL' in env)) {
    delete base.DATABASE_URL;
    delete base.PG_SCHEMA;
  }
  return base;
}

/**
 * Starts an entry point as a child process (TypeScript through tsx, compiled JavaScript with
 * plain node) and waits until `probe` answers.
 * `env.PORT` of '0' (or none) means any free port; without `env.DATABASE_URL` the server is on SQLite. `nodeArgs` go to node itself (`--cpu-prof`, say);
 * `apps/api/dist/server.js` also gets `productionNodeArgs()` before them.
 */
export async function startServer(
  entry: string,
  env: Record<string, string>,
  probe: string,
  nodeArgs: string[] = [],
): Promise<Server> {
  const port = env.PORT && env.PORT !== '0' ? env.PORT : String(await freePort());
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  // The compiled API runs with the flags of its production start.
  const production = entry.endsWith('apps/api/dist/server.js') ? productionNodeArgs() : [];
  const proc = spawn(process.execPath, [...production, ...nodeArgs, ...loader, entry], {
    cwd: ROOT,
    env: { ...inherited(env), ...env, PORT: port },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${entry} exited with ${proc.exitCode}`);
    try {
      const res = await fetch(url + probe);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${entry} did not start`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    proc,
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  name: string;
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(
  name: string,
  url: string,
  opts: {
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST' | 'PATCH';
    body?: string;
  } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: opts.connections ?? 100,
    duration: opts.duration ?? Number(process.env.BENCH_SECONDS ?? 8),
    headers: opts.headers,
    method: opts.method ?? 'GET',
    body: opts.body,
  });
  return {
    name,
    rps: Math.round(result.requests.average),
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export function printTable(rows: LoadResult[], baseline: LoadResult): void {
  console.log('\n| route | req/s | ratio to bare | p99 ms | errors | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const ratio = baseline.rps > 0 ? (r.rps / baseline.rps).toFixed(2) : 'n/a';
    console.log(`| ${r.name} | ${r.rps} | ${ratio} | ${r.p99} | ${r.errors} | ${r.non2xx} |`);
  }
}
