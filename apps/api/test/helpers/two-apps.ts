import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { dropPgSchema, ensurePgSchema, migrateToLatest, openDb } from '../../src/db/db';
import type { Db, DbHandle } from '../../src/db/db';
import { testEnv } from './app';

/**
 * Two apps on two handles to one database, standing for two server processes (decisions 0015,
 * 0059): PostgreSQL — two pools on a fresh schema of their own (`prefix_…`); SQLite — two
 * connections to one file. Migrated through the first handle, then `seed(db, dir)` (which
 * answers the files folder the apps serve), then both apps built. `close` undoes all of it.
 */
export interface TwoApps {
  a: FastifyInstance;
  b: FastifyInstance;
  handles: [DbHandle, DbHandle];
  dir: string;
  close(): Promise<void>;
}

export async function startTwoApps(
  prefix: string,
  seed: (db: Db, dir: string) => Promise<string>,
): Promise<TwoApps> {
  const url = process.env.DATABASE_URL;
  const dir = mkdtempSync(path.join(tmpdir(), `parcours-${prefix}-`));
  let pgSchema: string | undefined;
  let handles: [DbHandle, DbHandle];
  if (url) {
    pgSchema = `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
    await ensurePgSchema(url, pgSchema);
    const open = () => openDb({ databaseUrl: url, pgSchema, poolSize: 3 });
    handles = [open(), open()];
  } else {
    const file = path.join(dir, 'parcours.sqlite');
    handles = [openDb({ sqliteFile: file }), openDb({ sqliteFile: file })];
  }
  await migrateToLatest(handles[0].db, { pgSchema });
  const filesDir = await seed(handles[0].db, dir);
  const appOn = async (h: DbHandle) => {
    const app = await buildApp({ env: testEnv(), db: h.db, dbKind: h.kind, filesDir, logger: false });
    await app.ready();
    return app;
  };
  const [a, b] = [await appOn(handles[0]), await appOn(handles[1])];
  return {
    a,
    b,
    handles,
    dir,
    close: async () => {
      await a.close();
      await b.close();
      for (const h of handles) await h.close();
      if (pgSchema && url) await dropPgSchema(url, pgSchema);
      rmSync(dir, { recursive: true, force: true });
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}
