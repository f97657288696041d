import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dropPgSchema, openDb } from '../../src/db/db';
import { parseJson } from '../../src/db/schema';
import { client, rightAnswers, walkLesson } from '../helpers/learner-walk';
import type { Ack } from '../helpers/learner-walk';
import { deadline, whenLength } from '../helpers/events';

/**
 * Issue 10: the real server (src/server.ts, demo content) takes concurrent answers from a
 * learner's lessons, is killed with SIGKILL mid-run, and restarts on the same database: every
 * answer it acknowledged is there once with its score, and the learner's XP and done-page count
 * moved by exactly what the recorded pages hold (nothing lost, nothing counted twice). SQLite
 * file by default; with DATABASE_URL, a PostgreSQL schema of its own.
 */
const SERVER = path.resolve(import.meta.dirname, '../../src/server.ts');
const API_DIR = path.resolve(import.meta.dirname, '../..');
const DEMO = path.resolve(import.meta.dirname, '../../../../content/demo');
const LEARNER = { email: 'learner@example.com', password: 'Learner#2026' };
/** The kill comes once this many answers were acknowledged (or after KILL_AFTER_MS). */
const ACKS_BEFORE_KILL = 12;
const KILL_AFTER_MS = 30_000;

const dataDir = mkdtempSync(path.join(tmpdir(), 'parcours-durability-'));
const pgUrl = process.env.DATABASE_URL;
const pgSchema = pgUrl ? `t_dur_${randomBytes(5).toString('hex')}` : undefined;
const env = {
  ...process.env,
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: dataDir,
  SEED_CONTENT: DEMO,
  WEB_DIST: path.join(dataDir, 'no-web'),
  JWT_SECRET: 'durability-secret-durability-secret-0123',
  LOG_LEVEL: 'warn',
  LOGIN_RATE_LIMIT: '1000',
  ...(pgSchema ? { PG_SCHEMA: pgSchema } : {}),
};
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  if (pgUrl && pgSchema) await dropPgSchema(pgUrl, pgSchema);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts src/server.ts and resolves with its base URL once it listens. */
function startServer(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: API_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /running at http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve({ child, base: `http://127.0.0.1:${m[1]}` });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('exit', (code) =>
      reject(new Error(`server exited (${code}) before listening:\n${out.slice(-2000)}`)),
    );
  });
}

async function learnerState(db: ReturnType<typeof openDb>['db']) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'scoring', 'donePageCount'])
    .where('email', '=', LEARNER.email)
    .execute();
  return user.map((u) => ({
    id: u.id,
    xp: Number(parseJson<{ xp?: number }>(u.scoring, {}).xp ?? 0),
    done: Number(u.donePageCount),
  }));
}

describe('durability across SIGKILL', () => {
  it('keeps every acknowledged answer once with its score, and XP and page counts consistent', async () => {
    const first = await startServer();
    const dbOpts = pgUrl
      ? { databaseUrl: pgUrl, pgSchema: pgSchema! }
      : { sqliteFile: path.join(dataDir, 'parcours.sqlite') };
    const { before, right } = await (async () => {
      const h = openDb(dbOpts);
      try {
        return { before: await learnerState(h.db), right: await rightAnswers(h.db) };
      } finally {
        await h.close();
      }
    })();
    const runStart = new Date().toISOString();

    const anon = client(first.base);
    const signIn = await anon('POST', '/api/users/login', LEARNER);
    expect(signIn.status).toBe(200);
    const call = client(first.base, (signIn.json as { access_token: string }).access_token);
    const lessons = await call('GET', '/api/lessons?page[size]=50');
    const lessonIds = ((lessons.json as { data: { id: string; attributes: { state: string } }[] }).data ?? [])
      .filter((l) => !['LOCKED', 'HIDDEN', 'EXPIRED', 'DONE'].includes(l.attributes.state))
      .map((l) => l.id);
    expect(lessonIds.length).toBeGreaterThan(1);

    const acks: Ack[] = [];
    const stop = { now: false };
    const killer = (async () => {
      await Promise.race([whenLength(acks, ACKS_BEFORE_KILL), deadline(KILL_AFTER_MS)]);
      first.child.kill('SIGKILL');
      stop.now = true;
    })();
    // Concurrent learners' tabs: one walker per lesson; requests in flight at the kill fail.
    await Promise.allSettled(lessonIds.slice(0, 6).map((id) => walkLesson(call, id, acks, right, { stop })));
    await killer;
    const acknowledged = [...acks];
    expect(acknowledged.length).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);
    // Not a run of zeros: some answers earned points, so the XP check below means something.
    expect(acknowledged.some((a) => a.actual > 0)).toBe(true);

    const second = await startServer();
    // The restarted server answers, with the same token (stateless), and sees the answers.
    const again = client(second.base, (signIn.json as { access_token: string }).access_token);
    expect((await again('GET', '/api/users/me')).status).toBe(200);

    const h = openDb(dbOpts);
    try {
      for (const ack of acknowledged) {
        const rows = await h.db
          .selectFrom('lessonPages')
          .select(['id', 'answeredAt', 'scoreActual', 'scoreMax'])
          .where('id', '=', ack.pageId)
          .execute();
        expect(rows, `page ${ack.pageId}`).toHaveLength(1);
        expect(rows[0]!.answeredAt).not.toBeNull();
        expect({ actual: Number(rows[0]!.scoreActual), max: Number(rows[0]!.scoreMax) }).toEqual({
          actual: ack.actual,
          max: ack.max,
        });
      }
      // No page graded twice: one answered first attempt per lesson and node.
      const dup = await h.db
        .selectFrom('lessonPages')
        .select(['lessonId', 'nodeId'])
        .where('answeredAt', 'is not', null)
        .where('attempt', '=', 1)
        .where('lessonId', 'in', lessonIds)
        .groupBy(['lessonId', 'nodeId'])
        .having((eb) => eb.fn.countAll(), '>', 1)
        .execute();
      expect(dup).toEqual([]);
      // XP and done pages moved by exactly what the pages answered during the run hold.
      const after = await learnerState(h.db);
      const answered = await h.db
        .selectFrom('lessonPages')
        .select(['scoreActual', 'attempt'])
        .where('lessonId', 'in', lessonIds)
        .where('answeredAt', '>=', runStart)
        .where('attempt', '=', 1)
        .execute();
      const sum = Math.round(answered.reduce((s, p) => s + Number(p.scoreActual), 0) * 100) / 100;
      expect(after.length).toBe(before.length);
      const deltaXp = Math.round(after.reduce((s, u, i) => s + u.xp - before[i]!.xp, 0) * 100) / 100;
      const deltaDone = after.reduce((s, u, i) => s + u.done - before[i]!.done, 0);
      expect({ xp: deltaXp, done: deltaDone }).toEqual({ xp: sum, done: answered.length });
    } finally {
      await h.close();
      second.child.kill('SIGTERM');
    }
  }, 150_000);
});
