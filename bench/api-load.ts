import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, load, printTable, startServer } from './lib';
import type { LoadResult } from './lib';
import { dropDatabase, freshDatabase, pgUrl } from './generate/postgres-admin';
import { roundProfiler } from './profile';
import { benchRounds, fixed, littleRatio, median, roundOrder, targetText, verdict } from './rounds';
import { reportMachine, reportRounds, reportTarget } from './targets';

/**
 * API throughput under 100 concurrent connections, each figure beside a bare Fastify route
 * measured in the same run. The home screen's two reads are also set beside their own floor:
 * a bare route sending the very same bytes from memory. Both servers run as child processes
 * (the API compiled, as `npm start` runs it); autocannon runs here. Every ratio is measured in
 * `BENCH_ROUNDS` rounds alternating each reference and what is set against it (rounds.ts).
 */
const HOME_TARGET = {
  ratio: { better: 'higher', limit: 0.5 },
  p99: { better: 'lower', limit: 50 },
  // Issue 38: the p99 target is met by p99 ≤ 50 ms or by p99 ÷ mean wait ≤ 2 (Little's law).
  little: { better: 'lower', limit: 2 },
} as const;
/** Issue 38: what every signed-in request pays, `GET /api/users/me`, at ≥ 0.5 of the bare route. */
const ME_TARGET = { better: 'higher', limit: 0.5 } as const;
const ROUNDS = benchRounds();
const CONNECTIONS = 100;

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
type Measured = LoadResult & { cpuUs: number };

async function measured(pid: number | undefined, run: () => Promise<LoadResult>): Promise<Measured> {
  const before = cpuMs(pid);
  const result = await run();
  const requests = result.rps * Number(process.env.BENCH_SECONDS ?? 8);
  return { ...result, cpuUs: requests > 0 ? Math.round(((cpuMs(pid) - before) * 1000) / requests) : 0 };
}

/** a's rate over b's, NaN when either is missing or b served nothing. */
function rateRatio(a: LoadResult | undefined, b: LoadResult | undefined): number {
  return a && b && b.rps > 0 ? a.rps / b.rps : NaN;
}

/** `BENCH_API_DATABASES=sqlite,postgres` (both by default): the server's database, one run each. */
const DATABASES = (process.env.BENCH_API_DATABASES ?? 'sqlite,postgres').split(',').filter(Boolean);
/** The PostgreSQL database of this part, on the server of DATABASE_URL, created fresh and dropped after. */
const PG_DATABASE = 'parcours_api';

export async function apiLoad(): Promise<void> {
  execSync('npm run build -w @parcours/api', { cwd: ROOT, stdio: 'ignore' });
  for (const kind of DATABASES) {
    if (kind !== 'sqlite' && kind !== 'postgres') throw new Error(`BENCH_API_DATABASES: unknown ${kind}`);
    await reportMachine('api', kind);
    await apiLoadOn(kind);
  }
}

async function apiLoadOn(kind: 'sqlite' | 'postgres'): Promise<void> {
  const profiler = await roundProfiler(`api ${kind}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parcours-bench-'));
  // PostgreSQL: a fresh database the server migrates and fills with the demo content on its first
  // start, as it does an empty SQLite file.
  const databaseUrl = kind === 'postgres' ? pgUrl(PG_DATABASE) : undefined;
  if (databaseUrl) await freshDatabase(PG_DATABASE);
  const app = await startServer(
    'apps/api/dist/server.js',
    {
      PORT: '0',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      LOGIN_RATE_LIMIT: '100000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    '/api/contexts/current',
    // BENCH_CPU_PROF=dir writes the API server's CPU profile there when it stops.
    [
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      ...(profiler?.nodeArgs ?? []),
    ],
  );
  let bare: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    await profiler?.attach();
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

    // Every load of a round by key, in groups: a reference beside what is set against it (the
    // bare route beside the common path's reads; each home read beside its floor, and beside its
    // compressed answers). roundOrder alternates the groups and the loads within each.
    const loads = new Map<string, { pid: number | undefined; run: () => Promise<LoadResult> }>();
    const add = (key: string, pid: number | undefined, run: () => Promise<LoadResult>) =>
      loads.set(key, { pid, run });
    add('bare', bare.proc.pid, () => load('bare Fastify route', `${bare!.url}/bare`));
    // What every request of the API pays before a handler does anything: a small public read,
    // and a small signed-in one (token check and viewer read), with the server's CPU per request.
    add('contexts', app.proc.pid, () =>
      load('GET /api/contexts/current', `${app.url}/api/contexts/current`, {
        headers: { host: 'localhost' },
      }),
    );
    add('me', app.proc.pid, () => load('GET /api/users/me', `${app.url}/api/users/me`, { headers: auth }));
    const groups: string[][] = [runs('bare') ? ['bare', 'contexts', 'me'] : ['bare']];
    const homeNames = Object.keys(home).filter(runs) as (keyof typeof home)[];
    for (const name of homeNames) {
      const url = app.url + home[name];
      const kb = (sizes[name]! / 1024).toFixed(1);
      const floorUrl = `${bare.url}/floor/${name}`;
      add(`floor ${name}`, bare.proc.pid, () => load(`floor: the same ${kb} kB from memory`, floorUrl));
      add(`read ${name}`, app.proc.pid, () => load(`GET /api/${name} (home's read)`, url, { headers: auth }));
      // What compression costs: the same read asked for brotli, then gzip, as browsers do.
      const group = [`floor ${name}`, `read ${name}`];
      for (const encoding of runs('compression') ? ['br', 'gzip'] : []) {
        const label = `GET /api/${name}, Accept-Encoding: ${encoding}`;
        add(`${encoding} ${name}`, app.proc.pid, () =>
          load(label, url, { headers: { ...auth, 'accept-encoding': encoding } }),
        );
        group.push(`${encoding} ${name}`);
      }
      groups.push(group);
    }

    const measuredRounds: Map<string, Measured>[] = [];
    const profiles: { key: string; profile: unknown }[] = [];
    // What BENCH_PROFILE records, each named by its ratio to its reference: the home reads (to
    // their floor) and the common path's two reads (to the bare route, issue 38 item 4).
    const PROFILED = new Map<string, { reference: string; route: string }>([
      ['contexts', { reference: 'bare', route: 'GET /api/contexts/current' }],
      ['me', { reference: 'bare', route: 'GET /api/users/me' }],
      ...homeNames.map(
        (name) => [`read ${name}`, { reference: `floor ${name}`, route: `GET /api/${name}` }] as const,
      ),
    ]);
    for (let round = 0; round < ROUNDS; round++) {
      const results = new Map<string, Measured>();
      for (const group of roundOrder(groups, round)) {
        for (const key of roundOrder(group, round)) {
          const { pid, run } = loads.get(key)!;
          // The home reads' and the common path's rounds are profiled (BENCH_PROFILE): the
          // server's side of a slow round beside a fast one's.
          if (profiler && PROFILED.has(key)) {
            const { result, profile } = await profiler.record(() => measured(pid, run));
            results.set(key, result);
            // The reference comes after the read in odd rounds: the file is named once both are known.
            profiles.push({ key, profile });
          } else results.set(key, await measured(pid, run));
        }
      }
      measuredRounds.push(results);
      console.log(`\napi on ${kind}, round ${round + 1} of ${ROUNDS}:`);
      printTable([...results.values()], results.get('bare')!);
      for (const { key, profile } of profiles.splice(0)) {
        const { reference, route } = PROFILED.get(key)!;
        const ratio = rateRatio(results.get(key), results.get(reference));
        const file = profiler!.save(profile, key, round, `${ratio.toFixed(2)} of ${reference}`);
        console.log(`CPU profile of ${route}, round ${round + 1}: ${file}`);
      }
    }
    reportApi(kind, measuredRounds, homeNames, sizes);
  } finally {
    profiler?.close();
    await bare?.stop();
    await app.stop();
    if (databaseUrl) await dropDatabase(PG_DATABASE);
  }
}

/**
 * The figures of every round: each read's rate over its reference's in the same round (the bare
 * route, the floor of the same bytes, the plain answer for a compressed one), as median, worst
 * round and spread; the home reads' targets met only by their median and worst round.
 */
function reportApi(
  kind: string,
  rounds: readonly Map<string, Measured>[],
  homeNames: readonly string[],
  sizes: Record<string, number>,
): void {
  const each = <T>(fn: (r: Map<string, Measured>) => T): T[] => rounds.map(fn);
  const cleanOf = (key: string) =>
    rounds.every((r) => {
      const m = r.get(key);
      return m !== undefined && m.errors === 0 && m.non2xx === 0;
    });
  const med = (key: string, field: 'rps' | 'cpuUs') =>
    fixed(median(rounds.map((r) => r.get(key)?.[field] ?? NaN)));
  for (const key of ['contexts', 'me']) {
    if (!rounds[0]?.has(key)) continue;
    reportRounds({
      part: 'api',
      what: `${kind}, ${key === 'me' ? 'GET /api/users/me' : 'GET /api/contexts/current'}, ratio to the bare route`,
      values: each((r) => rateRatio(r.get(key), r.get('bare'))),
      target: key === 'me' ? ME_TARGET : null,
      // The bare route's own CPU per request beside it: what the common path costs above Fastify's floor.
      extra: `median ${med(key, 'rps')} / ${med('bare', 'rps')} req/s, server CPU ${med(key, 'cpuUs')} µs/request (bare ${med('bare', 'cpuUs')})`,
      clean: key === 'me' ? cleanOf(key) : true,
    });
  }
  for (const name of homeNames) {
    const read = `read ${name}`;
    const floor = `floor ${name}`;
    const kb = (sizes[name]! / 1024).toFixed(1);
    // The same ratio by CPU time per request: the rates depend on the CPU the machine's other
    // processes leave to each side, the CPU a request costs much less.
    const byCpu = each((r) => {
      const real = r.get(read)?.cpuUs ?? 0;
      return real > 0 ? (r.get(floor)?.cpuUs ?? 0) / real : NaN;
    });
    reportRounds({
      part: 'api',
      what: `${kind}, home read ${name} (${kb} kB), ratio to its floor`,
      values: each((r) => rateRatio(r.get(read), r.get(floor))),
      target: HOME_TARGET.ratio,
      extra:
        `median ${med(read, 'rps')} / ${med(floor, 'rps')} req/s; by CPU median ${fixed(median(byCpu), 2)} ` +
        `(${med(floor, 'cpuUs')} / ${med(read, 'cpuUs')} µs/request)`,
      clean: cleanOf(read),
    });
    // Either latency figure meets the target (issue 38): each its own row, then the verdict.
    const p99 = reportRounds({
      part: 'api',
      what: `${kind}, home read ${name}, p99 at ${CONNECTIONS} connections`,
      values: each((r) => r.get(read)?.p99 ?? NaN),
      target: null,
      better: 'lower',
      digits: 0,
      unit: ' ms',
    });
    // Little's law: p99 over the mean wait at this rate, a latency figure that travels.
    const little = reportRounds({
      part: 'api',
      what: `${kind}, home read ${name}, p99 ÷ mean wait (${CONNECTIONS} ÷ rate)`,
      values: each((r) => {
        const m = r.get(read);
        return m ? littleRatio(m.p99, m.rps, CONNECTIONS) : NaN;
      }),
      target: null,
      better: 'lower',
    });
    reportTarget({
      part: 'api',
      what: `${kind}, home read ${name}, latency: p99 or p99 ÷ mean wait`,
      figure: `p99 median ${fixed(p99.median)} ms, worst ${fixed(p99.worst)} ms; ratio median ${fixed(little.median, 2)}, worst ${fixed(little.worst, 2)}`,
      target: `${targetText(HOME_TARGET.p99, ' ms')} or ${targetText(HOME_TARGET.little)}`,
      met: verdict(p99, HOME_TARGET.p99, cleanOf(read)) || verdict(little, HOME_TARGET.little, cleanOf(read)),
    });
    // What compression costs: the compressed answer's rate over the plain one's, same round.
    for (const encoding of ['br', 'gzip']) {
      if (!rounds[0]?.has(`${encoding} ${name}`)) continue;
      reportRounds({
        part: 'api',
        what: `${kind}, home read ${name} compressed (${encoding}), rate relative to plain`,
        values: each((r) => rateRatio(r.get(`${encoding} ${name}`), r.get(read))),
        target: null,
        extra: `p99 median ${fixed(median(rounds.map((r) => r.get(`${encoding} ${name}`)?.p99 ?? NaN)))} ms`,
      });
    }
  }
}
