import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, load, printTable, startServer } from './lib';
import type { LoadResult } from './lib';
import { reportTarget } from './targets';

/**
 * API throughput under 100 concurrent connections, each figure beside a bare Fastify route
 * measured in the same run. The home screen's two reads are also set beside their own floor:
 * a bare route sending the very same bytes from memory. Both servers run as child processes
 * (the API compiled, as `npm start` runs it); autocannon runs here.
 */
const HOME_TARGET = { ratio: 0.5, p99: 50 };

/**
 * `BENCH_API_ONLY=lessons,class-users,compression,bare` runs only those parts (with a CPU
 * profile, one read at a time shows its own costs). The floors always run beside their read.
 */
const only = new Set((process.env.BENCH_API_ONLY ?? '').split(',').filter(Boolean));
const runs = (part: string) => only.size === 0 || only.has(part);

/** CPU time (user + system) a process has used so far, in ms (Linux /proc, 100 ticks a second). */
function cpuMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * On a shared machine requests/s swing with the neighbours' load; the server's own CPU time per
 * request swings much less, so the home rows also say that.
 */
async function measured(
  pid: number | undefined,
  run: () => Promise<LoadResult>,
): Promise<LoadResult & { cpuUs: number }> {
  const before = cpuMs(pid);
  const result = await run();
  const requests = result.rps * Number(process.env.BENCH_SECONDS ?? 8);
  return { ...result, cpuUs: requests > 0 ? Math.round(((cpuMs(pid) - before) * 1000) / requests) : 0 };
}

export async function apiLoad(): Promise<void> {
  execSync('npm run build -w @parcours/api', { cwd: ROOT, stdio: 'ignore' });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parcours-bench-'));
  const app = await startServer(
    'apps/api/dist/server.js',
    {
      PORT: '0',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      LOGIN_RATE_LIMIT: '100000',
    },
    '/api/contexts/current',
    // BENCH_CPU_PROF=dir writes the API server's CPU profile there when it stops.
    process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  );
  let bare: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const login = await fetch(`${app.url}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: 'localhost' },
      body: JSON.stringify({ email: 'learner@example.com', password: 'Learner#2026' }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const { access_token: token, user_id: userId } = (await login.json()) as {
      access_token: string;
      user_id: string;
    };
    const auth = { authorization: `Bearer ${token}`, host: 'localhost' };

    // The home's two reads, exactly as apps/web/src/features/home/api/*.ts sends them.
    const home = {
      lessons: `/api/lessons?filter[userId]=${userId}&include=course`,
      'class-users': `/api/class-users?filter[role]=STUDENT&filter[expired]=false&sort=-createdAt&include=class.classPrograms.program.programCourses.course,class.teachers`,
    };
    const floorDir = path.join(dataDir, 'floor');
    mkdirSync(floorDir);
    let contentType = '';
    const sizes: Record<string, number> = {};
    for (const [name, url] of Object.entries(home)) {
      const res = await fetch(app.url + url, { headers: { ...auth, 'accept-encoding': 'identity' } });
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      contentType = res.headers.get('content-type') ?? contentType;
      const body = Buffer.from(await res.arrayBuffer());
      sizes[name] = body.length;
      writeFileSync(path.join(floorDir, name), body);
    }
    bare = await startServer(
      'bench/bare-server.ts',
      { PORT: '0', BENCH_FLOOR_DIR: floorDir, BENCH_FLOOR_TYPE: contentType },
      '/bare',
    );

    const baseline = await load('bare Fastify route', `${bare.url}/bare`);
    const rows: LoadResult[] = [baseline];
    // What every request of the API pays before a handler does anything: a small public read,
    // and a small signed-in one (token check and viewer read), with the server's CPU per request.
    const pipeline: (LoadResult & { cpuUs: number })[] = [];
    if (runs('bare')) {
      pipeline.push(
        await measured(app.proc.pid, () =>
          load('GET /api/contexts/current', `${app.url}/api/contexts/current`, {
            headers: { host: 'localhost' },
          }),
        ),
        await measured(app.proc.pid, () =>
          load('GET /api/users/me', `${app.url}/api/users/me`, { headers: auth }),
        ),
      );
      rows.push(...pipeline);
    }
    const homeRows: {
      name: string;
      floor: LoadResult & { cpuUs: number };
      real: LoadResult & { cpuUs: number };
    }[] = [];
    for (const [name, url] of Object.entries(home)) {
      if (!runs(name)) continue;
      const kb = (sizes[name]! / 1024).toFixed(1);
      const floorUrl = `${bare.url}/floor/${name}`;
      const floor = await measured(bare.proc.pid, () =>
        load(`floor: the same ${kb} kB from memory`, floorUrl),
      );
      const real = await measured(app.proc.pid, () =>
        load(`GET /api/${name} (home's read)`, app.url + url, { headers: auth }),
      );
      rows.push(floor, real);
      homeRows.push({ name, floor, real });
    }
    // What compression costs: the same reads asked for brotli, then gzip, as browsers do.
    for (const encoding of runs('compression') ? ['br', 'gzip'] : []) {
      for (const [name, url] of Object.entries(home)) {
        rows.push(
          await load(`GET /api/${name}, Accept-Encoding: ${encoding}`, app.url + url, {
            headers: { ...auth, 'accept-encoding': encoding },
          }),
        );
      }
    }
    printTable(rows, baseline);

    console.log(
      `\n| home read | size kB | req/s | floor req/s | ratio to floor (target ≥ ${HOME_TARGET.ratio}) | p99 ms (target ≤ ${HOME_TARGET.p99}) | server CPU µs/request | floor's | ratio by CPU |`,
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const { name, floor, real } of homeRows) {
      const ratio = floor.rps > 0 ? real.rps / floor.rps : 0;
      const ok =
        ratio >= HOME_TARGET.ratio && real.p99 <= HOME_TARGET.p99 && real.errors === 0 && real.non2xx === 0;
      const byCpu = real.cpuUs > 0 ? (floor.cpuUs / real.cpuUs).toFixed(2) : 'n/a';
      console.log(
        `| ${name} | ${(sizes[name]! / 1024).toFixed(1)} | ${real.rps} | ${floor.rps} | ${ratio.toFixed(2)} | ${real.p99}${ok ? '' : ' (missed)'} | ${real.cpuUs} | ${floor.cpuUs} | ${byCpu} |`,
      );
      reportTarget({
        part: 'api',
        what: `home read ${name} (${(sizes[name]! / 1024).toFixed(1)} kB), ratio to its floor`,
        figure: `${ratio.toFixed(2)} (${real.rps} / ${floor.rps} req/s; by CPU ${byCpu})`,
        target: `≥ ${HOME_TARGET.ratio}`,
        met: ratio >= HOME_TARGET.ratio && real.errors === 0 && real.non2xx === 0,
      });
      reportTarget({
        part: 'api',
        what: `home read ${name}, p99 at 100 connections`,
        figure: `${real.p99} ms`,
        target: `≤ ${HOME_TARGET.p99} ms`,
        met: real.p99 <= HOME_TARGET.p99,
      });
    }
    for (const p of pipeline) console.log(`${p.name}: server CPU ${p.cpuUs} µs/request`);
    reportCompression(rows, homeRows);
  } finally {
    await bare?.stop();
    await app.stop();
  }
}

/** What compressing the home's reads costs: their rate with br and gzip beside the plain one. */
function reportCompression(rows: LoadResult[], homeRows: { name: string; real: LoadResult }[]): void {
  for (const { name, real } of homeRows) {
    for (const encoding of ['br', 'gzip']) {
      const row = rows.find((r) => r.name === `GET /api/${name}, Accept-Encoding: ${encoding}`);
      if (!row || real.rps === 0) continue;
      reportTarget({
        part: 'api',
        what: `home read ${name} compressed (${encoding}), rate relative to plain`,
        figure: `${(row.rps / real.rps).toFixed(2)} (p99 ${row.p99} ms)`,
        target: 'cost kept small',
        met: null,
      });
    }
  }
}
