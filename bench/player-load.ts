import { execSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import type { LoadResult } from './lib';
import { ROOT, load, printTable, startServer } from './lib';
import { dropDatabase, freshDatabase, pgUrl } from './generate/postgres-admin';
import { answeringFloor, openFloor, pool } from './player-floor';
import type { Tuple } from './player-floor';
import { reportAnswering } from './player-report';
import type { PlayerRound } from './player-report';
import { autocannonWarmUp, run } from './player-runs';
import { roundProfiler } from './profile';
import { benchRounds, roundOrder } from './rounds';
import { reportMachine } from './targets';
import type { DbKind } from '@parcours/api/db/db';

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
    await reportMachine('player', kind);
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
