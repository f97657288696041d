import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../lib';
import type { Server } from '../lib';
import { DEMO_LEARNER, signIn } from './client';
import { dropDatabase, freshDatabase, pgRun, pgUrl } from './postgres-admin';
import { readTemplate } from './template';
import type { Template } from './template';
import { postgresWriter, sqliteWriter } from './writers';
import type { Writer } from './writers';
import { openDb } from '@parcours/api/db/db';

export type DbKind = 'sqlite' | 'postgres';

export interface BenchDatabase {
  kind: DbKind;
  /** A fresh compiled server (`npm start`'s entry) on this database. */
  start(): Promise<Server>;
  /** What generated learners are made of: the demo tenant's classes and courses. */
  template: Template;
  /** Bulk writer into this database (close it before the next server start on SQLite is fine). */
  writer(): Writer;
  /** Drops the PostgreSQL database and removes the data dir (a SQLite file of 1–2 GB at full size). */
  drop(): Promise<void>;
  /**
   * Lets the disk settle before a measured run: PostgreSQL writes its dirty buffers (CHECKPOINT)
   * and the kernel its dirty pages (sync). Without it a run measures the writes of what came
   * before it as well: the load part, run right after the growth part's million-page databases,
   * gave PostgreSQL steady p99s of 80–101 ms where a run alone gives 42–46 ms.
   */
  settle(): Promise<void>;
}

/**
 * A database of the bench's own, SQLite in a fresh data dir or PostgreSQL in a fresh database
 * `pgName` on the server of DATABASE_URL: a first start of the real server migrates it and imports
 * the demo content, whose tenant of the demo learner becomes the template of generated learners.
 * The server runs with LOGIN_RATE_LIMIT=100000: a bench signs many learners in from one loopback
 * address, which the per-address sign-in limit would otherwise refuse.
 */
export async function benchDatabase(kind: DbKind, pgName: string): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `parcours-bench-${pgName}-${kind}-`));
  const sqliteFile = path.join(dataDir, 'parcours.sqlite');
  const databaseUrl = kind === 'postgres' ? pgUrl(pgName) : undefined;
  if (databaseUrl) await freshDatabase(pgName);
  const env = {
    PORT: '0',
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    LOGIN_RATE_LIMIT: '100000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const start = () => startServer('apps/api/dist/server.js', env, '/api/contexts/current');
  const first = await start();
  let template: Template;
  try {
    const demo = await signIn(first.url, DEMO_LEARNER.email, DEMO_LEARNER.password);
    const handle = openDb({ databaseUrl, sqliteFile });
    template = await readTemplate(handle.db, demo.userId);
    await handle.close();
  } finally {
    await first.stop();
  }
  return {
    kind,
    start,
    template,
    writer: () => (databaseUrl ? postgresWriter(databaseUrl) : sqliteWriter(sqliteFile)),
    drop: async () => {
      if (databaseUrl) await dropDatabase(pgName);
      rmSync(dataDir, { recursive: true, force: true });
    },
    settle: async () => {
      if (databaseUrl)
        await pgRun(databaseUrl, 'CHECKPOINT').catch((error: unknown) =>
          console.warn(`CHECKPOINT refused (needs a superuser or pg_checkpoint): ${String(error)}`),
        );
      execSync('sync');
    },
  };
}
