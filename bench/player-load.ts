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
import { reportTarget } from './targets';
import { openDb } from '@parcours/api/db/db';
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
// 120 bench classes: about 10 000 fresh pages, of which FLOOR_PAGES go to the floor and the rest
// (about 8 000, some 5 s) to answering over HTTP, long enough for a warmed steady part.
const LESSONS_PER_LEARNER = Number(process.env.BENCH_PLAYER_LESSONS ?? 120);
/** Fresh pages the in-process floor answers (its rate needs no more; the rest go to HTTP). */
const FLOOR_PAGES = Number(process.env.BENCH_PLAYER_FLOOR_PAGES ?? 2000);
const PASSWORD = 'Bench#2026x';

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

/** The server's CPU time per response of each run (µs, from /proc): a figure machine load does not skew. */
const serverCpuUs = new Map<string, number>();
/** p99 (ms) of each run's warmed steady part (`steady.ts`), with the number of responses it holds. */
const steadyP99 = new Map<string, { p99: number; count: number }>();

async function run(
  name: string,
  url: string,
  tuples: Tuple[],
  opts: {
    method: 'GET' | 'PATCH';
    amount?: number;
    body?: (t: Tuple) => string;
    serverPid?: number | undefined;
  },
): Promise<LoadResult> {
  let i = 0;
  const instance = autocannon({
    url,
    connections: 100,
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
  // over the time between them: the steady state with all 100 connections busy.
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
  serverCpuUs.set(name, (serverCpu * 1e6) / Math.max(1, answered));
  const steady = steadySamples(samples, 100);
  const steadyMs = steady.map((s) => s.ms);
  steadyP99.set(name, { p99: Math.round(quantile(steadyMs, 0.99)), count: steady.length });
  if (process.env.BENCH_CPU) {
    console.log(
      `${name}: server CPU ${((serverCpu / wall) * 100).toFixed(0)} %, load generator ${(((own.user + own.system) / 1e6 / wall) * 100).toFixed(0)} % of one core`,
    );
  }
  const rps = opts.amount ? (answered - 1) / ((last - first) / 1000) : result.requests.average;
  console.log(
    `${name}: p99 ${result.latency.p99} ms over the whole run (${answered} responses, ${wall.toFixed(1)} s), ` +
      `${steadyP99.get(name)!.p99} ms over its warmed steady part (${steadyP99.get(name)!.count} responses: ` +
      `without the first quarter of the run's time and the last 100; p50 ${Math.round(quantile(steadyMs, 0.5))} ms, p90 ${Math.round(quantile(steadyMs, 0.9))} ms)`,
  );
  return {
    name,
    rps: Math.round(rps),
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * The same answers without HTTP: in this process, on the server's SQLite file (the server is idle
 * meanwhile), 100 at a time, each doing what the PATCH route does after Fastify — the viewer read
 * of authentication, the player service (lesson, pages, grading, the write and its commit) and
 * the JSON of the response — and, as the route does after the commit, the learning record of the
 * answer (issue 14, written in batches off the answer's path; flushed before the clock stops).
 * Its rate bounds what any HTTP framework in front could reach.
 */
/** µs per answer spent inside SQLite by the last floor run. */
let floorSqliteUs = 0;
/** SQL statements per answer in the last floor run, every one counted at better-sqlite3. */
let floorStatements = 0;
/** CPU time per answer of the last floor run (µs, this process). */
let floorCpuUs = 0;

/** Issue 11's answering targets on SQLite (decision 0016). */
const ANSWER_TARGET = { ratioToFloor: 0.9, statements: 5, p99Alone: 50 };

async function answeringFloor(file: string, tuples: Tuple[]): Promise<LoadResult> {
  const handle = openDb({ sqliteFile: file });
  // As the route: the content cache under the content stamp read with the viewer (decision 0025).
  const caches = new VersionedContentCache();
  let errors = 0;
  sqliteClock.enabled = true;
  const contexts = new Map(
    (await handle.db.selectFrom('contexts').select(['id', 'alias', 'hosts']).execute()).map((c) => [c.id, c]),
  );
  const counter = countSqliteStatements(sqliteDatabaseOf(handle.db)!);
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
        kind: 'sqlite' as const,
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
  floorCpuUs = (cpu.user + cpu.system) / tuples.length;
  const seconds = (performance.now() - t0) / 1000;
  sqliteClock.enabled = false;
  // Every statement the answers ran (reads through Kysely too); BEGIN and COMMIT are shared by
  // the answers of a group commit, so they count once per batch here.
  floorStatements = counter.stop().length / tuples.length;
  const sqliteUs = Number(sqliteClock.ns) / 1000 / tuples.length;
  const totalUs = (seconds * 1e6) / tuples.length;
  console.log(
    `floor: ${(tuples.length / seconds) | 0} answers/s, ${totalUs.toFixed(0)} µs of one core per answer, of which ${sqliteUs.toFixed(0)} µs ` +
      `inside SQLite (${floorStatements.toFixed(2)} statements per answer)`,
  );
  await handle.close();
  latencies.sort((a, b) => a - b);
  floorSqliteUs = sqliteUs;
  return {
    name: `floor: the same answering without HTTP, in process (${tuples.length} pages)`,
    rps: Math.round(tuples.length / seconds),
    p99: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
    errors,
    non2xx: 0,
  };
}

export async function playerLoad(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parcours-bench-'));
  console.log(
    `player bench: importing demo content + ${LEARNERS} learners x ${LESSONS_PER_LEARNER} lessons…`,
  );
  // The compiled server with its production node flags (`npm start`), as shipped.
  execSync('npm run build -w @parcours/api', { cwd: ROOT, stdio: 'ignore' });
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
    },
    '/api/contexts/current',
    // BENCH_CPU_PROF=dir writes the API server's CPU profile there when it stops.
    process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  );
  const bare = await startServer('bench/bare-server.ts', { PORT: '0' }, '/bare');
  try {
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
    // The floor (below) answers fresh pages too: FLOOR_PAGES of them (at most half), the rest go to HTTP.
    const floorTuples =
      !only || only.includes('floor')
        ? tuples.splice(tuples.length - Math.min(FLOOR_PAGES, Math.floor(tuples.length / 2)))
        : [];
    // One lesson per learner for the read load, so 100 connections read as 100 learners.
    const readers = learners
      .map((l, i) => tuples.find((t) => t.token === l.token) ?? tuples[i]!)
      .filter(Boolean);

    const baseline = await load('bare Fastify route', `${bare.url}/bare`);
    const loads: [string, () => Promise<LoadResult>][] = [
      // Reference: the cheapest authenticated route (token check, user and roles read) on the same server.
      [
        'me',
        () =>
          load('GET /api/users/me (reference: auth only)', `${app.url}/api/users/me`, {
            headers: { authorization: `Bearer ${readers[0]!.token}` },
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
        'answer',
        () =>
          run(
            `PATCH …/pages/current, answering (${tuples.length} distinct pages, all graded)`,
            app.url,
            tuples,
            {
              method: 'PATCH',
              amount: tuples.length,
              body: (t) => t.body,
              serverPid: app.proc.pid,
            },
          ),
      ],
      [
        'again',
        () =>
          run('PATCH …/pages/current, already answered (409 INVALID_INPUTS)', app.url, readers, {
            method: 'PATCH',
            body: (t) => t.body,
            serverPid: app.proc.pid,
          }),
      ],
    ];
    const rows = [baseline];
    let graded: LoadResult | undefined;
    for (const [key, fn] of loads) {
      if (only && !only.includes(key)) continue;
      const row = await fn();
      if (key === 'answer') graded = row;
      rows.push(row);
    }
    if (floorTuples.length > 0)
      rows.push(await answeringFloor(path.join(dataDir, 'parcours.sqlite'), floorTuples));
    printTable(rows, baseline);
    reportAnswering(
      graded,
      rows.find((r) => r.name.startsWith('floor:')),
    );
  } finally {
    await bare.stop();
    await app.stop();
  }
}

/** Issue 11 (decision 0016): answering over HTTP against its in-process floor, the floor's statements, p99 alone. */
function reportAnswering(graded: LoadResult | undefined, floor: LoadResult | undefined): void {
  if (floor) {
    reportTarget({
      part: 'player',
      what: 'answering floor (in process, no HTTP)',
      figure: `${floor.rps} answers/s, ${floorSqliteUs.toFixed(0)} µs/answer inside SQLite`,
      target: '',
      met: null,
    });
    reportTarget({
      part: 'player',
      what: 'SQL statements per answer (floor run, learning records included; BEGIN/COMMIT shared by a group commit)',
      figure: floorStatements.toFixed(2),
      target: `≤ ${ANSWER_TARGET.statements}`,
      met: floorStatements <= ANSWER_TARGET.statements && floor.errors === 0,
    });
  }
  if (!graded) return;
  const clean = graded.errors === 0 && graded.non2xx === 0;
  if (floor && floor.rps > 0) {
    const ratio = graded.rps / floor.rps;
    // The same ratio by CPU time per answer: the rates depend on the CPU the machine's other
    // processes leave to each side, the CPU an answer costs does not.
    const server = serverCpuUs.get(graded.name) ?? 0;
    const byCpu = server > 0 ? (floorCpuUs / server).toFixed(2) : 'n/a';
    reportTarget({
      part: 'player',
      what: 'answering over HTTP, ratio to the floor (SQLite)',
      figure: `${ratio.toFixed(2)} (${graded.rps} / ${floor.rps} answers/s; by CPU ${byCpu}: ${floorCpuUs.toFixed(0)} / ${server.toFixed(0)} µs per answer)`,
      target: `≥ ${ANSWER_TARGET.ratioToFloor}`,
      met: ratio >= ANSWER_TARGET.ratioToFloor && clean,
    });
  }
  // The target is the p99 a learner meets on a warm, fully loaded server: the run's warmed steady
  // part (steady.ts). The whole run's p99 (the cold first burst of 100 included) is shown beside it.
  const steady = steadyP99.get(graded.name);
  const p99 = steady?.p99 ?? graded.p99;
  reportTarget({
    part: 'player',
    what: 'answering alone, p99 at 100 connections, warmed steady part (whole run beside it)',
    figure:
      `${p99} ms over ${steady?.count ?? 0} answers (whole run ${graded.p99} ms)` +
      (clean ? '' : ` (${graded.errors} errors, ${graded.non2xx} non-2xx)`),
    target: `≤ ${ANSWER_TARGET.p99Alone} ms`,
    met: p99 <= ANSWER_TARGET.p99Alone && clean,
  });
}
