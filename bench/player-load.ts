import { execSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { parse, stringify } from 'yaml';
import type { LoadResult } from './lib';
import { ROOT, load, printTable, startServer } from './lib';
import { steadySamples } from './steady';
import type { Sample } from './steady';
import { quantile } from './generate/measure';
import { dropDatabase, freshDatabase, pgUrl } from './generate/postgres-admin';
import { roundProfiler } from './profile';
import { benchRounds, fixed, littleRatio, median, roundOrder } from './rounds';
import { reportMachine, reportRounds } from './targets';
import { openDb } from '@parcours/api/db/db';
import type { DbKind } from '@parcours/api/db/db';
import { countSqliteStatements, sqliteClock, sqliteDatabaseOf } from '@parcours/api/db/prepared';
import { VersionedContentCache } from '@parcours/api/modules/lesson-pages/content-cache';
import { answerPage } from '@parcours/api/modules/lesson-pages/service';
import { emitPlayerEvent, flushEmitted } from '@parcours/api/modules/lrs/emit';
import { findHomeViewer } from '@parcours/api/modules/users/repository';
import { resourceDocument } from '@parcours/api/plugins/jsonapi';

/**
 * Lesson player under 100 concurrent learners (issue 3), each figure beside a bare Fastify route
 * measured in the same run:
 * - GET /api/lessons/{id}/pages/current: 100 connections, each request as one of 100 learners
 *   reading their current page (the page exists: the read path).
 * - PATCH /api/lessons/{id}/pages/current: every request answers a DIFFERENT (learner, lesson,
 *   page) — a real grading, XP and lesson update, each page answered once, all expected 200.
 *   Learners are enrolled in LESSONS_PER_LEARNER bench classes so there are enough fresh pages;
 *   the run is `amount`-bound (one request per prepared page) rather than time-bound.
 * - PATCH of an already answered page (409 INVALID_INPUTS), the refusal path, for reference.
 * Learners, classes and enrolments are written as content (a copy of content/demo plus bench
 * users and classes) and imported by the server on its first start.
 */
const LEARNERS = 100;
// 240 bench classes: about 24 000 fresh pages, of which FLOOR_PAGES go to the floor, 200 to the
// reads and the rest to answering over HTTP, shared out between the rounds (issue 32): some 7 000
// a round, two thirds at 100 connections and one third at 20, each long enough for a warmed
// steady part (120 classes, one run, gave 8 000 at 100 connections).
const LESSONS_PER_LEARNER = Number(process.env.BENCH_PLAYER_LESSONS ?? 240);
/** Fresh pages the in-process floor answers in each round (some 0.5 s of a quiet machine). */
const FLOOR_PAGES = Number(process.env.BENCH_PLAYER_FLOOR_PAGES ?? 1500);
const PASSWORD = 'Bench#2026x';
/** Fresh pages answered over HTTP and in process before the first round, not reported. */
const WARMUP = Number(process.env.BENCH_PLAYER_WARMUP ?? 200);
/** Rounds of every ratio (rounds.ts): the fresh pages are shared out between them. */
const ROUNDS = benchRounds();

function benchContent(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parcours-bench-content-'));
  cpSync(path.join(ROOT, 'content/demo'), dir, { recursive: true });
  const fr = path.join(dir, 'tenants/fr');
  const users = parse(readFileSync(path.join(fr, 'users.yaml'), 'utf8')) as { users: unknown[] };
  const ids = Array.from({ length: LEARNERS }, (_, i) => `bench-${String(i + 1).padStart(3, '0')}`);
  for (const id of ids)
    users.users.push({ id, email: `${id}@bench.test`, password: PASSWORD, firstname: 'Bench', lastname: id });
  writeFileSync(path.join(fr, 'users.yaml'), stringify(users));
  const classes = parse(readFileSync(path.join(fr, 'classes.yaml'), 'utf8')) as { classes: unknown[] };
  for (let k = 1; k <= LESSONS_PER_LEARNER; k++) {
    classes.classes.push({
      id: `bench-class-${k}`,
      name: `Bench class ${k}`,
      startAt: '-1d',
      expireAt: '+30d',
      programs: [{ program: 'savoirs-de-base' }],
      users: ids.map((user) => ({ user, role: 'STUDENT' })),
    });
  }
  writeFileSync(path.join(fr, 'classes.yaml'), stringify(classes));
  return dir;
}

/** Runs `fn` over `items` with at most `width` at once. */
async function pool<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

interface PageDoc {
  data: {
    id: string;
    attributes: {
      block: { content: { sections: { rows: { type: string; targets?: unknown[] }[] }[] } } | null;
    };
  };
}

/** A valid (not necessarily right) answer for each row of a page. */
function answersFor(doc: PageDoc): unknown[] {
  const rows = doc.data.attributes.block?.content.sections.flatMap((s) => s.rows) ?? [];
  return rows.map((r) => {
    switch (r.type) {
      case 'multiple-choice':
      case 'image-cliquable':
      case 'pick-words':
        return [0];
      case 'combined-choice':
        return 0;
      case 'free-answer':
        return '1';
      case 'drag-n-drop':
        return (r.targets ?? []).map(() => []);
      default:
        return null;
    }
  });
}

interface Tuple {
  token: string;
  lessonId: string;
  pageId: string;
  body: string;
}

/** CPU time (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** A load run of the player's routes, with what the targets need beside autocannon's figures. */
interface PlayerRun extends LoadResult {
  /** p99 (ms) of the run's warmed steady part (`steady.ts`) and the responses it holds. */
  steadyP99: number;
  steadyCount: number;
  /** The server's CPU time per response (µs, from /proc): a figure machine load skews less. */
  serverCpuUs: number;
}

async function run(
  name: string,
  url: string,
  tuples: Tuple[],
  opts: {
    method: 'GET' | 'PATCH';
    amount?: number;
    body?: (t: Tuple) => string;
    serverPid?: number | undefined;
    connections?: number;
  },
): Promise<PlayerRun> {
  // autocannon refuses more connections than requests (a small slice of a smoke run).
  const connections = Math.min(opts.connections ?? 100, opts.amount ?? Infinity);
  let i = 0;
  const instance = autocannon({
    url,
    connections,
    ...(opts.amount ? { amount: opts.amount } : { duration: Number(process.env.BENCH_SECONDS ?? 8) }),
    requests: [
      {
        setupRequest: (req) => {
          const t = tuples[i++ % tuples.length]!;
          return {
            ...req,
            method: opts.method,
            path: `/api/lessons/${t.lessonId}/pages/current`,
            headers: {
              ...req.headers,
              authorization: `Bearer ${t.token}`,
              'content-type': 'application/json',
            },
            ...(opts.body ? { body: opts.body(t) } : {}),
          };
        },
      },
    ],
  });
  // An amount-bound run lasts a few seconds, and autocannon ends it on its next one-second tick
  // (3000 trivial requests "take" 1.04 s where the last answer came after 0.5 s), so its own
  // duration understates short runs badly. Rate = answers between the first and the last one,
  // over the time between them: the steady state with all connections busy.
  let first = 0;
  let last = 0;
  let answered = 0;
  const samples: Sample[] = [];
  (
    instance as unknown as {
      on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
    }
  ).on('response', (_client, _status, _bytes, ms) => {
    const t = performance.now();
    if (answered++ === 0) first = t;
    last = t;
    samples.push({ at: t, ms });
  });
  const cpu0 = cpuSeconds(opts.serverPid);
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await instance;
  const wall = (performance.now() - t0) / 1000;
  const own = process.cpuUsage(own0);
  const serverCpu = cpuSeconds(opts.serverPid) - cpu0;
  const steady = steadySamples(samples, connections);
  const steadyMs = steady.map((s) => s.ms);
  // No steady part (a run too short): no figure, rather than a p99 of 0 that would meet any target.
  const steadyP99 = steady.length > 0 ? Math.round(quantile(steadyMs, 0.99)) : NaN;
  if (process.env.BENCH_CPU) {
    console.log(
      `${name}: server CPU ${((serverCpu / wall) * 100).toFixed(0)} %, load generator ${(((own.user + own.system) / 1e6 / wall) * 100).toFixed(0)} % of one core`,
    );
  }
  const rps = opts.amount ? (answered - 1) / ((last - first) / 1000) : result.requests.average;
  console.log(
    `${name}: p99 ${result.latency.p99} ms over the whole run (${answered} responses, ${wall.toFixed(1)} s), ` +
      `${steadyP99} ms over its warmed steady part (${steady.length} responses: without the first quarter ` +
      `of the run's time and the last ${connections}; p50 ${Math.round(quantile(steadyMs, 0.5))} ms, p90 ${Math.round(quantile(steadyMs, 0.9))} ms)`,
  );
  return {
    name,
    rps: Math.round(rps),
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    steadyP99,
    steadyCount: steady.length,
    serverCpuUs: (serverCpu * 1e6) / Math.max(1, answered),
  };
}

/** One run of the in-process floor, with what the answering targets set beside it. */
interface FloorRun extends LoadResult {
  /** µs per answer spent inside SQLite. */
  sqliteUs: number;
  /** SQL statements per answer, every one counted at better-sqlite3. */
  statements: number;
  /** Answers per group commit (per `BEGIN IMMEDIATE`; the learning records' batches count too). */
  perCommit: number;
  /** CPU time per answer (µs, this process). */
  cpuUs: number;
}

/** Issue 11's answering targets on SQLite (decision 0016), the latency ones restated by issue 32. */
const ANSWER_TARGET = {
  ratioToFloor: { better: 'higher', limit: 0.9 },
  statements: 5,
  /** p99 over the mean wait at 100 connections (Little's law: 100 ÷ rate). */
  little100: { better: 'lower', limit: 2 },
  /** p99 at 20 connections, ms. */
  p99At20: { better: 'lower', limit: 50 },
} as const;

/** A database handle of the bench's own on the server's database, kept open for every floor round. */
interface FloorDb {
  handle: ReturnType<typeof openDb>;
  kind: DbKind;
  caches: VersionedContentCache;
  /** The tenants, as the route hands them to the learning record. */
  contexts: Map<string, Parameters<typeof emitPlayerEvent>[1]>;
}

async function openFloor(where: { sqliteFile: string } | { databaseUrl: string }): Promise<FloorDb> {
  // PostgreSQL: a pool of the server's default size (DATABASE_POOL_SIZE, 10).
  const handle = openDb({ ...where, poolSize: 10 });
  const contexts = new Map(
    (await handle.db.selectFrom('contexts').select(['id', 'alias', 'hosts']).execute()).map((c) => [c.id, c]),
  );
  // As the route: the content cache under the content stamp read with the viewer (decision 0025).
  return { handle, kind: handle.kind, caches: new VersionedContentCache(), contexts };
}

/**
 * The same answers without HTTP: in this process, on the server's SQLite file (the server is idle
 * meanwhile), 100 at a time, each doing what the PATCH route does after Fastify — the viewer read
 * of authentication, the player service (lesson, pages, grading, the write and its commit) and
 * the JSON of the response — and, as the route does after the commit, the learning record of the
 * answer (issue 14, written in batches off the answer's path; flushed before the clock stops).
 * Its rate bounds what any HTTP framework in front could reach.
 */
async function answeringFloor(floor: FloorDb, tuples: Tuple[]): Promise<FloorRun> {
  const { handle, caches, contexts, kind } = floor;
  let errors = 0;
  // SQLite only: the time inside the database and the statements, counted at better-sqlite3.
  const database = kind === 'sqlite' ? sqliteDatabaseOf(handle.db) : undefined;
  sqliteClock.enabled = database !== undefined;
  const ns0 = sqliteClock.ns;
  const counter = database ? countSqliteStatements(database) : undefined;
  const cpu0 = process.cpuUsage();
  const claims = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string; ctx: string };
  const t0 = performance.now();
  const latencies = await pool(tuples, 100, async (t) => {
    const start = performance.now();
    const { sub, ctx } = claims(t.token);
    const body = JSON.parse(t.body) as { pageId: string; inputs: { answers: unknown[] } };
    try {
      const viewer = await findHomeViewer(handle.db, ctx, sub);
      if (!viewer) throw new Error('no viewer');
      const ctxOf = {
        db: handle.db,
        kind,
        contextId: ctx,
        userId: sub,
        receivedAt: new Date(),
        cache: caches.at(viewer.versions?.content),
      };
      const doc = await answerPage(ctxOf, t.lessonId, body.pageId, body.inputs.answers);
      emitPlayerEvent(ctxOf, contexts.get(ctx)!, 'answered', t.lessonId, body.pageId);
      JSON.stringify(resourceDocument(doc, []));
    } catch {
      errors++;
    }
    return performance.now() - start;
  });
  await flushEmitted(handle.db);
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t0) / 1000;
  sqliteClock.enabled = false;
  // Every statement the answers ran (reads through Kysely too); BEGIN and COMMIT are shared by
  // the answers of a group commit, so they count once per batch here.
  const seen = counter?.stop() ?? [];
  const statements = counter ? seen.length / tuples.length : NaN;
  // How many answers shared a group commit (decision 0007) here: in process, the 100 answers in
  // flight reach the batcher within one turn of the event loop; over HTTP they arrive as the
  // sockets are read, which may make smaller batches (issue 32's first suspect).
  const commits = seen.filter((sql) => /^begin/i.test(sql)).length;
  const sqliteUs = database ? Number(sqliteClock.ns - ns0) / 1000 / tuples.length : NaN;
  const totalUs = (seconds * 1e6) / tuples.length;
  console.log(
    `floor: ${(tuples.length / seconds) | 0} answers/s, ${totalUs.toFixed(0)} µs of one core per answer` +
      (database
        ? `, of which ${sqliteUs.toFixed(0)} µs inside SQLite (${statements.toFixed(2)} statements per answer, ` +
          `${fixed(tuples.length / commits, 1)} answers per group commit)`
        : ''),
  );
  latencies.sort((a, b) => a - b);
  return {
    name: `floor: the same answering without HTTP, in process (${tuples.length} pages)`,
    rps: Math.round(tuples.length / seconds),
    p99: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
    errors,
    non2xx: 0,
    sqliteUs,
    statements,
    perCommit: database && commits > 0 ? tuples.length / commits : NaN,
    cpuUs: (cpu.user + cpu.system) / tuples.length,
  };
}

/** Answers `pages` over HTTP at 100 connections, figures thrown away: a warm-up. */
async function autocannonWarmUp(url: string, pages: Tuple[]): Promise<void> {
  if (pages.length === 0) return;
  let i = 0;
  await autocannon({
    url,
    connections: Math.min(100, pages.length),
    amount: pages.length,
    requests: [
      {
        setupRequest: (req) => {
          const t = pages[i++ % pages.length]!;
          return {
            ...req,
            method: 'PATCH',
            path: `/api/lessons/${t.lessonId}/pages/current`,
            headers: {
              ...req.headers,
              authorization: `Bearer ${t.token}`,
              'content-type': 'application/json',
            },
            body: t.body,
          };
        },
      },
    ],
  });
}

/** `items` cut into `parts` consecutive slices of (nearly) equal length. */
function slices<T>(items: readonly T[], parts: number): T[][] {
  return Array.from({ length: parts }, (_, k) =>
    items.slice(Math.floor((k * items.length) / parts), Math.floor(((k + 1) * items.length) / parts)),
  );
}

/** `BENCH_PLAYER_DATABASES=sqlite,postgres` (both by default): the server's database, one run each. */
const DATABASES = (process.env.BENCH_PLAYER_DATABASES ?? 'sqlite,postgres').split(',').filter(Boolean);
/** The PostgreSQL database of this part, on the server of DATABASE_URL, created fresh and dropped after. */
const PG_DATABASE = 'parcours_player';

export async function playerLoad(): Promise<void> {
  // The compiled server with its production node flags (`npm start`), as shipped.
  execSync('npm run build -w @parcours/api', { cwd: ROOT, stdio: 'ignore' });
  for (const kind of DATABASES) {
    if (kind !== 'sqlite' && kind !== 'postgres') throw new Error(`BENCH_PLAYER_DATABASES: unknown ${kind}`);
    reportMachine('player', kind);
    await playerLoadOn(kind);
  }
}

async function playerLoadOn(kind: DbKind): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parcours-bench-'));
  console.log(
    `player bench on ${kind}: importing demo content + ${LEARNERS} learners x ${LESSONS_PER_LEARNER} lessons…`,
  );
  // PostgreSQL: a fresh database the server migrates and fills with the bench content on its
  // first start, as it does an empty SQLite file.
  const databaseUrl = kind === 'postgres' ? pgUrl(PG_DATABASE) : undefined;
  if (databaseUrl) await freshDatabase(PG_DATABASE);
  // BENCH_PROFILE: the server's CPU profile of each round's answering at 100 connections.
  const profiler = await roundProfiler(`player ${kind}`);
  const app = await startServer(
    'apps/api/dist/server.js',
    {
      PORT: '0',
      DATA_DIR: dataDir,
      SEED_CONTENT: benchContent(),
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
  const bare = await startServer('bench/bare-server.ts', { PORT: '0' }, '/bare');
  try {
    await profiler?.attach();
    const api = async <T>(
      method: string,
      p: string,
      token: string | null,
      body?: unknown,
    ): Promise<{ status: number; json: T }> => {
      const res = await fetch(app.url + p, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, json: (await res.json().catch(() => null)) as T };
    };
    const t0 = Date.now();
    const learners = await pool(
      Array.from({ length: LEARNERS }, (_, i) => `bench-${String(i + 1).padStart(3, '0')}@bench.test`),
      8,
      async (email) => {
        const login = await api<{ access_token: string }>('POST', '/api/users/login', null, {
          email,
          password: PASSWORD,
        });
        if (login.status !== 200) throw new Error(`login ${email}: ${login.status}`);
        const token = login.json.access_token;
        // Every page of the list: it holds at most 100 lessons (MAX_PAGE_SIZE), and a learner of
        // more than 100 bench classes has more (one page of 100 is why BENCH_PLAYER_LESSONS above
        // 100 added no fresh pages).
        const lessonIds: string[] = [];
        for (let number = 1; ; number++) {
          const lessons = await api<{ data: { id: string; attributes: { state: string } }[] }>(
            'GET',
            `/api/lessons?page[size]=100&page[number]=${number}`,
            token,
          );
          for (const l of lessons.json.data) if (l.attributes.state === 'AVAILABLE') lessonIds.push(l.id);
          if (lessons.json.data.length < 100) break;
        }
        return { token, lessonIds };
      },
    );
    // Every lesson: open it (slide), close the slide, go to the first exercise — the page PATCH will answer.
    const jobs = learners.flatMap((l) => l.lessonIds.map((lessonId) => ({ token: l.token, lessonId })));
    // Why a lesson gave no fresh page (call and status), printed: a silent shortfall hid before.
    const dropped = new Map<string, number>();
    const drop = (why: string) => {
      dropped.set(why, (dropped.get(why) ?? 0) + 1);
      return null;
    };
    const tuples = (
      await pool(jobs, 50, async ({ token, lessonId }) => {
        let page = await api<PageDoc>('GET', `/api/lessons/${lessonId}/pages/current`, token);
        if (page.status !== 200) return drop(`GET current ${page.status}`);
        const done = await api('PATCH', `/api/lessons/${lessonId}/pages/current`, token, {
          pageId: page.json.data.id,
        });
        if (done.status !== 200) return drop(`PATCH (close the slide) ${done.status}`);
        page = await api<PageDoc>('POST', `/api/lessons/${lessonId}/pages/next`, token, {
          fromPageId: page.json.data.id,
        });
        if (page.status !== 200) return drop(`POST next ${page.status}`);
        return {
          token,
          lessonId,
          pageId: page.json.data.id,
          body: JSON.stringify({ pageId: page.json.data.id, inputs: { answers: answersFor(page.json) } }),
        };
      })
    ).filter((t): t is Tuple => t !== null);
    console.log(
      `prepared ${tuples.length} fresh exercise pages of ${jobs.length} available lessons in ${((Date.now() - t0) / 1000).toFixed(0)} s` +
        (dropped.size ? ` (none from: ${[...dropped].map(([why, n]) => `${n} × ${why}`).join(', ')})` : ''),
    );
    // BENCH_PLAYER_ONLY=me,read,answer,again,floor runs only those loads (to profile one: see README).
    const only = process.env.BENCH_PLAYER_ONLY?.split(',');
    const wants = (key: string) => !only || only.includes(key);
    // The floor (below) answers fresh pages too: FLOOR_PAGES a round (at most half of them all).
    const floorTuples = wants('floor')
      ? tuples.splice(tuples.length - Math.min(FLOOR_PAGES * ROUNDS, Math.floor(tuples.length / 2)))
      : [];
    // Pages of their own for the loads that run for a time (BENCH_SECONDS), one per learner so
    // that 100 connections read as 100 learners, taken out of those the rounds answer: a fresh
    // page each for the read, never answered; and a page each answered once here, which the
    // already-answered load sends again (409) in every round.
    const perLearner = () =>
      learners.flatMap((l) => {
        const at = tuples.findIndex((t) => t.token === l.token);
        return at >= 0 ? tuples.splice(at, 1) : [];
      });
    const readers = wants('read') ? perLearner() : [];
    const answeredOnce = wants('again') ? perLearner() : [];
    await pool(answeredOnce, 8, async (t) => {
      const done = await api(
        'PATCH',
        `/api/lessons/${t.lessonId}/pages/current`,
        t.token,
        JSON.parse(t.body),
      );
      if (done.status !== 200) throw new Error(`answering once before the rounds: ${done.status}`);
    });
    const floor =
      floorTuples.length > 0
        ? await openFloor(
            databaseUrl ? { databaseUrl } : { sqliteFile: path.join(dataDir, 'parcours.sqlite') },
          )
        : undefined;
    // Both sides of the answering ratio warmed before the first round (not reported): the server
    // has only closed slides so far, and the floor's code has never run in this process, which
    // made a tiny first round's floor 5x slower than the second's.
    if (WARMUP > 0)
      console.log(`warm-up: up to ${WARMUP} answers over HTTP and ${WARMUP} in process, not reported`);
    if (wants('answer') && WARMUP > 0) {
      const pages = tuples.splice(0, Math.min(WARMUP, Math.floor(tuples.length / 4)));
      await autocannonWarmUp(app.url, pages);
    }
    if (floor && WARMUP > 0)
      await answeringFloor(
        floor,
        floorTuples.splice(0, Math.min(WARMUP, Math.floor(floorTuples.length / 4))),
      );
    const floorSlices = slices(floorTuples, ROUNDS);
    // Each round answers pages of its own: the fresh pages cut into ROUNDS slices, each slice
    // answered two thirds at 100 connections and one third at 20 (the latency target's load).
    const httpSlices = slices(tuples, ROUNDS).map((slice) => {
      const cut = Math.round((slice.length * 2) / 3);
      return { at100: slice.slice(0, cut), at20: slice.slice(cut) };
    });

    // A round: the routes beside the bare one, then answering beside its floor (the group and the
    // loads within each alternate from round to round: rounds.ts).
    const reads: [string, () => Promise<LoadResult>][] = [
      ['bare', () => load('bare Fastify route', `${bare.url}/bare`)],
      // Reference: the cheapest authenticated route (token check, user and roles read) on the same server.
      [
        'me',
        () =>
          load('GET /api/users/me (reference: auth only)', `${app.url}/api/users/me`, {
            headers: { authorization: `Bearer ${learners[0]!.token}` },
          }),
      ],
      [
        'read',
        () =>
          run('GET …/pages/current (100 learners)', app.url, readers, {
            method: 'GET',
            serverPid: app.proc.pid,
          }),
      ],
      [
        'again',
        () =>
          run('PATCH …/pages/current, already answered (409 INVALID_INPUTS)', app.url, answeredOnce, {
            method: 'PATCH',
            body: (t) => t.body,
            serverPid: app.proc.pid,
          }),
      ],
    ];
    const answer = (pages: Tuple[], connections: number) =>
      run(
        `PATCH …/pages/current, answering at ${connections} connections (${pages.length} distinct pages, all graded)`,
        app.url,
        pages,
        { method: 'PATCH', amount: pages.length, body: (t) => t.body, serverPid: app.proc.pid, connections },
      );
    const rounds: PlayerRound[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const r: PlayerRound = { loads: new Map() };
      const { at100, at20 } = httpSlices[round]!;
      let profile: unknown;
      const answering: [string, () => Promise<unknown>][] = [
        [
          'answer',
          async () => {
            if (at100.length === 0) return;
            if (!profiler) r.answer100 = await answer(at100, 100);
            else ({ result: r.answer100, profile } = await profiler.record(() => answer(at100, 100)));
          },
        ],
        [
          'answer',
          async () => {
            if (at20.length > 0) r.answer20 = await answer(at20, 20);
          },
        ],
        [
          'floor',
          async () => {
            if (floor) r.floor = await answeringFloor(floor, floorSlices[round]!);
          },
        ],
      ];
      const groups = [
        reads
          .filter(([key]) => key === 'bare' || wants(key))
          .map(([, fn]) => async () => {
            const row = await fn();
            r.loads.set(row.name, row);
          }),
        answering.filter(([key]) => wants(key)).map(([, fn]) => fn),
      ];
      for (const group of roundOrder(groups, round)) for (const fn of roundOrder(group, round)) await fn();
      rounds.push(r);
      console.log(`\nplayer on ${kind}, round ${round + 1} of ${ROUNDS}:`);
      const rows = [...r.loads.values(), r.answer100, r.answer20, r.floor].filter(
        (row): row is LoadResult => row !== undefined,
      );
      printTable(
        rows,
        [...r.loads.values()].find((row) => row.name === 'bare Fastify route')!,
      );
      if (profiler && profile !== undefined) {
        const ratio = r.answer100 && r.floor ? r.answer100.rps / r.floor.rps : NaN;
        const file = profiler.save(profile, 'answer at 100', round, `${ratio.toFixed(2)} of floor`);
        console.log(`CPU profile of answering, round ${round + 1}: ${file}`);
      }
    }
    await floor?.handle.close();
    reportAnswering(kind, rounds);
  } finally {
    profiler?.close();
    await bare.stop();
    await app.stop();
    if (databaseUrl) await dropDatabase(PG_DATABASE);
  }
}

/** What one round measured: the loads beside the bare route by name, answering and its floor. */
interface PlayerRound {
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
function reportAnswering(kind: DbKind, rounds: readonly PlayerRound[]): void {
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
