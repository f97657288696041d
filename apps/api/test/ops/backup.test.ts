import { spawnSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { migrateToLatest, openDb } from '../../src/db/db';
import { seedWorld } from '../helpers/fixtures';
import type { ApiProcess } from '../helpers/api-process';
import {
  builtServer,
  contentWithLearners,
  removeBuiltServer,
  startApiProcess,
  tokenFor,
} from '../helpers/api-process';
import { client, playableLessons, rightAnswers, walkLesson } from '../helpers/learner-walk';
import type { Ack } from '../helpers/learner-walk';
import { whenLength } from '../helpers/events';

/**
 * Issue 30, backups. SQLite: `npm run backup` while learners answer, `npm run restore` refused
 * while the app holds the database and done once it is stopped; the restored file passes
 * `PRAGMA integrity_check` and holds every answer acknowledged before the backup began.
 * PostgreSQL: the pg_dump / pg_restore commands of docs/operations.md, once. Each part skips
 * itself, saying why, on the other database.
 */
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const pgUrl = process.env.DATABASE_URL;
const isPg = !!pgUrl && /^postgres(ql)?:\/\//.test(pgUrl);
const LEARNERS = 30;
const dataDir = mkdtempSync(path.join(tmpdir(), 'parcours-backup-'));
let server: ApiProcess | undefined;
let content: { dir: string } | undefined;

afterAll(() => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  if (content) rmSync(content.dir, { recursive: true, force: true });
  removeBuiltServer();
});

/** `npm run <script> -- <file>` from the repository root, as an operator types it. */
function npmRun(script: string, file: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', file], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('SQLite backup and restore', () => {
  it('backs up while learners answer, refuses to restore under a running app, restores a whole database', async (ctx) => {
    if (isPg) {
      ctx.skip(
        'SQLite only: DATABASE_URL is PostgreSQL, whose backups are pg_dump / pg_restore (tested below)',
      );
      return;
    }
    content = contentWithLearners(LEARNERS);
    const env = { DATA_DIR: dataDir, SEED_CONTENT: content.dir, WEB_DIST: path.join(dataDir, 'no-web') };
    server = await startApiProcess(env, builtServer());
    const file = path.join(dataDir, 'parcours.sqlite');
    const h = openDb({ sqliteFile: file });
    const learners = await h.db
      .selectFrom('users')
      .select(['id', 'contextId'])
      .where('email', 'like', '%@ops.test')
      .execute();
    const right = await rightAnswers(h.db);
    await h.close();

    const acks: Ack[] = [];
    const stop = { now: false };
    const base = server.base;
    const walks = Promise.all(
      learners.map(async (l) => {
        const call = client(base, await tokenFor(l.id, l.contextId));
        const lessonId = (await playableLessons(call))[0];
        if (lessonId) await walkLesson(call, lessonId, acks, right, { stop, maxAnswers: 6 });
      }),
    );
    await whenLength(acks, 20);
    const before = [...acks];
    const backupFile = path.join(dataDir, 'copy.sqlite');
    const backup = await npmRun('backup', backupFile, { DATA_DIR: dataDir });
    const during = acks.length - before.length;
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toMatch(/integrity ok/);

    const refused = await npmRun('restore', backupFile, { DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(new RegExp(`open in process ${server.child.pid}`));

    await walks;
    stop.now = true;
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const restored = await npmRun('restore', backupFile, { DATA_DIR: dataDir });
    expect(restored.code, restored.out).toBe(0);

    const db = new SQLite(file, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const page = db.prepare('select answered_at, score_actual, score_max from lesson_pages where id = ?');
      for (const ack of before) {
        const row = page.get(ack.pageId) as {
          answered_at: string | null;
          score_actual: number;
          score_max: number;
        };
        expect(row?.answered_at, ack.pageId).toBeTruthy();
        expect({ actual: row.score_actual, max: row.score_max }).toEqual({
          actual: ack.actual,
          max: ack.max,
        });
      }
    } finally {
      db.close();
    }
    console.log(`backup: ${before.length} answers before it, ${during} acknowledged while it ran`);
  }, 120_000);
});

/** Drops a database once no client is left on it (closing pools' sockets take a moment). */
async function dropWhenFree(admin: pg.Client, name: string): Promise<void> {
  await vi.waitFor(() => admin.query(`drop database if exists ${name}`), { timeout: 5_000, interval: 100 });
}

describe('PostgreSQL pg_dump and pg_restore', () => {
  it('runs the commands of docs/operations.md on a throwaway database', async (ctx) => {
    if (!isPg) {
      ctx.skip('PostgreSQL only: DATABASE_URL is not postgres://, and SQLite backups are tested above');
      return;
    }
    const name = `parcours_backup_${randomBytes(4).toString('hex')}`;
    const url = new URL(pgUrl!);
    url.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    const dump = path.join(dataDir, 'parcours.dump');
    try {
      await admin.query(`create database ${name}`);
      const h = openDb({ databaseUrl: url.href, poolSize: 2 });
      await migrateToLatest(h.db, { pgSchema: 'public' });
      const world = await seedWorld(h.db);
      rmSync(world.filesDir, { recursive: true, force: true });
      const count = async (db: typeof h.db) =>
        Promise.all(
          (['users', 'lessons', 'lessonPages', 'contexts'] as const).map(async (t) =>
            Number(
              (
                await db
                  .selectFrom(t)
                  .select((eb) => eb.fn.countAll<number>().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            ),
          ),
        );
      const expected = await count(h.db);
      await h.close();

      const dumped = spawnSync('pg_dump', ['--format=custom', `--file=${dump}`, url.href], {
        encoding: 'utf8',
      });
      expect(dumped.status, dumped.stderr).toBe(0);
      // Lost: the database is dropped and made again empty, as on a new server.
      await admin.query(`drop database ${name}`);
      await admin.query(`create database ${name}`);
      const back = spawnSync('pg_restore', ['--no-owner', `--dbname=${url.href}`, dump], {
        encoding: 'utf8',
      });
      expect(back.status, back.stderr).toBe(0);

      const r = openDb({ databaseUrl: url.href, poolSize: 2 });
      try {
        expect(await count(r.db)).toEqual(expected);
        // The restored database is at the latest migration: the app would start on it as is.
        await migrateToLatest(r.db, { pgSchema: 'public' });
      } finally {
        await r.close();
      }
    } finally {
      // The pools above are closed; their last sockets may still be closing: wait for them rather
      // than terminate them (a terminated client emits an error nobody listens to any more).
      await dropWhenFree(admin, name);
      await admin.end();
    }
  }, 60_000);
});
