import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dropPgSchema, openDb } from '../../src/db/db';
import type { ApiProcess } from '../helpers/api-process';
import {
  builtServer,
  contentWithLearners,
  removeBuiltServer,
  startApiProcess,
  tokenFor,
} from '../helpers/api-process';
import { client, playableLessons } from '../helpers/learner-walk';
import { parsePrometheus, sampleValue } from '../helpers/prometheus';
import type { PageDoc } from '../helpers/learner-walk';

/**
 * Issue 30: SIGTERM while 200 answers are in flight. Readiness says 503 as soon as the stop
 * begins; every answer the server acknowledged is stored, every answer stored has its learning
 * record (the player's statements are queued in memory and written at the stop), and the
 * process exits 0. The server runs with its metrics listener on, scraped once. SQLite file by default; with DATABASE_URL, a PostgreSQL schema of its own.
 */
// One open page per learner (the demo program makes one lesson available): 200 answers at once.
const LEARNERS = 200;
const dataDir = mkdtempSync(path.join(tmpdir(), 'parcours-stop-'));
const content = contentWithLearners(LEARNERS);
const pgUrl = process.env.DATABASE_URL;
const pgSchema = pgUrl ? `t_stop_${randomBytes(5).toString('hex')}` : undefined;
const dbOpts = pgUrl
  ? { databaseUrl: pgUrl, pgSchema: pgSchema! }
  : { sqliteFile: path.join(dataDir, 'parcours.sqlite') };
let server: ApiProcess | undefined;

afterAll(async () => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  if (pgUrl && pgSchema) await dropPgSchema(pgUrl, pgSchema);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(content.dir, { recursive: true, force: true });
  removeBuiltServer();
});

/** Sends a request's first bytes only: the connection is busy, so the stop waits for it. */
function halfRequest(base: string, url: string) {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const ended = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
  socket.write(`GET ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
  return {
    finish: async () => {
      socket.write('Connection: close\r\n\r\n');
      return ended;
    },
  };
}

describe('graceful stop', () => {
  it('SIGTERM during 200 answers: readiness 503, no acknowledged answer or queued statement lost, exit 0', async () => {
    server = await startApiProcess(
      {
        DATA_DIR: dataDir,
        SEED_CONTENT: content.dir,
        WEB_DIST: path.join(dataDir, 'no-web'),
        METRICS_PORT: '0',
        ...(pgSchema ? { PG_SCHEMA: pgSchema } : {}),
      },
      builtServer(),
    );
    const base = server.base;
    expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);

    const h = openDb(dbOpts);
    const learners = await h.db
      .selectFrom('users')
      .select(['id', 'contextId'])
      .where('email', 'like', '%@ops.test')
      .execute();
    await h.close();
    expect(learners).toHaveLength(LEARNERS);

    const ready: { call: ReturnType<typeof client>; lessonId: string; pageId: string; rows: number }[] = [];
    await Promise.all(
      learners.map(async (l) => {
        const call = client(base, await tokenFor(l.id, l.contextId));
        for (const lessonId of (await playableLessons(call)).slice(0, 1)) {
          const page = await call('GET', `/api/lessons/${lessonId}/pages/current`);
          const doc = (page.json as PageDoc).data;
          if (page.status === 200 && doc.attributes.block && !doc.attributes.results)
            ready.push({
              call,
              lessonId,
              pageId: doc.id,
              rows: doc.attributes.block.content?.rows?.length ?? 0,
            });
        }
      }),
    );
    expect(ready.length).toBe(LEARNERS);
    // The metrics listener of the real server (METRICS_PORT=0: any port) counted those reads.
    const metricsUrl = /Metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(server.output())?.[1];
    expect(metricsUrl, server.output()).toBeTruthy();
    const scrape = parsePrometheus(await (await fetch(metricsUrl!)).text());
    const route = { method: 'GET', route: '/api/lessons/:id/pages/current', status_code: '200' };
    expect(sampleValue(scrape, 'parcours_http_requests_total', route)).toBe(LEARNERS);

    const probe = halfRequest(base, '/api/health/ready');
    const runStart = new Date(Date.now() - 1000).toISOString();
    let first: () => void = () => undefined;
    const firstAnswer = new Promise<void>((resolve) => (first = resolve));
    const acked: { pageId: string }[] = [];
    const sent = ready.map(async (r) => {
      const answers = Array.from({ length: r.rows }, () => null);
      const res = await r
        .call('PATCH', `/api/lessons/${r.lessonId}/pages/current`, { pageId: r.pageId, inputs: { answers } })
        .catch(() => ({ status: 0, json: null }));
      first();
      if (res.status === 200) acked.push({ pageId: r.pageId });
      return res.status;
    });
    // The stop comes while the answers are being taken.
    await firstAnswer;
    server.child.kill('SIGTERM');
    await server.said(/SIGTERM: draining/);
    const readiness = await probe.finish();
    expect(readiness).toMatch(/^HTTP\/1\.1 503/);
    const statuses = await Promise.all(sent);
    expect(await server.exited, server.output().slice(-2000)).toBe(0);

    // Refused connections (after the listener closed) are fine: they were never acknowledged.
    expect(
      statuses.every((s) => s === 200 || s === 0),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(acked.length).toBeGreaterThan(0);
    const check = openDb(dbOpts);
    try {
      const ids = learners.map((l) => l.id);
      const stored = await check.db
        .selectFrom('lessonPages')
        .select('id')
        .where('answeredAt', 'is not', null)
        .where('answeredAt', '>=', runStart)
        .where(
          'lessonId',
          'in',
          ready.map((r) => r.lessonId),
        )
        .execute();
      const storedIds = new Set(stored.map((p) => p.id));
      for (const a of acked) expect(storedIds.has(a.pageId), a.pageId).toBe(true);
      // Each stored answer has its statement: the queue was written before the database closed.
      const statements = await check.db
        .selectFrom('xapiStatements')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('userId', 'in', ids)
        .where('verbId', 'in', [
          'http://adlnet.gov/expapi/verbs/answered',
          'http://adlnet.gov/expapi/verbs/experienced',
        ])
        .executeTakeFirstOrThrow();
      expect(Number(statements.n)).toBe(stored.length);
      console.log(
        `graceful stop: ${acked.length} of ${ready.length} answers acknowledged, ${stored.length} stored, ${Number(statements.n)} statements`,
      );
    } finally {
      await check.close();
    }
  }, 120_000);
});
