import type { LoadResult } from './lib';
import { fixed } from './rounds';
import type { DbKind } from '@parcours/api/db/db';
import { openDb } from '@parcours/api/db/db';
import { countSqliteStatements, sqliteClock, sqliteDatabaseOf } from '@parcours/api/db/prepared';
import { VersionedContentCache } from '@parcours/api/modules/lesson-pages/content-cache';
import { answerPage } from '@parcours/api/modules/lesson-pages/service';
import { emitPlayerEvent, flushEmitted } from '@parcours/api/modules/lrs/emit';
import { registerBudget } from '@parcours/api/modules/quotas/budget';
import { quotasFrom } from '@parcours/api/modules/quotas/config';
import { loadEnv } from '@parcours/api/env';
import { findHomeViewer } from '@parcours/api/modules/users/repository';
import { resourceDocument } from '@parcours/api/plugins/jsonapi';

/**
 * The player bench's in-process floor (`player-load.ts`): the answers of the PATCH route without
 * HTTP, on the server's own database, whose rate the answering over HTTP is set against.
 */

/** A fresh exercise page of a learner's lesson, and the body that answers it. */
export interface Tuple {
  token: string;
  lessonId: string;
  pageId: string;
  body: string;
}

/** Runs `fn` over `items` with at most `width` at once. */
export async function pool<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
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

/** One run of the in-process floor, with what the answering targets set beside it. */
export interface FloorRun extends LoadResult {
  /** µs per answer spent inside SQLite. */
  sqliteUs: number;
  /** SQL statements per answer, every one counted at better-sqlite3. */
  statements: number;
  /** Answers per group commit (per `BEGIN IMMEDIATE`; the learning records' batches count too). */
  perCommit: number;
  /** CPU time per answer (µs, this process). */
  cpuUs: number;
}

/** A database handle of the bench's own on the server's database, kept open for every floor round. */
export interface FloorDb {
  handle: ReturnType<typeof openDb>;
  kind: DbKind;
  caches: VersionedContentCache;
  /** The tenants, as the route hands them to the learning record. */
  contexts: Map<string, Parameters<typeof emitPlayerEvent>[1]>;
}

export async function openFloor(where: { sqliteFile: string } | { databaseUrl: string }): Promise<FloorDb> {
  // PostgreSQL: a pool of the server's default size (DATABASE_POOL_SIZE, 10).
  const handle = openDb({ ...where, poolSize: 10 });
  // The statements store charges each learner's budget (decision 0055), as the server's does.
  const env = loadEnv({ ...process.env, JWT_SECRET: process.env.JWT_SECRET ?? 'x'.repeat(40) });
  registerBudget(handle.db, quotasFrom(env), () => undefined);
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
export async function answeringFloor(floor: FloorDb, tuples: Tuple[]): Promise<FloorRun> {
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
