import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src/db/checkpointer';

/**
 * Decision 0025: the server's SQLite connection never checkpoints inside a COMMIT; a worker
 * thread with its own connection does. Sizes, not times: with SQLite's automatic checkpoint the
 * WAL would restart after about 1 000 pages (4 MB) and the database file would grow meanwhile.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'parcours-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('WAL checkpoints in a worker thread', () => {
  it('commits never checkpoint; the worker copies the WAL into the database file', async () => {
    const file = path.join(dir, 'db.sqlite');
    const db = new SQLite(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('create table t (a text)');
    // A long interval: only `now()` checkpoints during the test.
    const checkpointer = startCheckpointer(db, file, 3_600_000);
    try {
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      const insert = db.prepare('insert into t (a) values (?)');
      const row = 'x'.repeat(3_000);
      // ~3 000 pages, one transaction each: three times the automatic checkpoint's threshold.
      for (let i = 0; i < 3_000; i++) insert.run(row);
      const dbBefore = statSync(file).size;
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(3 * 1_000 * 4_096);
      expect(dbBefore).toBeLessThan(1_000 * 4_096);

      await checkpointer.now();
      expect(statSync(file).size).toBeGreaterThan(3_000 * 3_000);
      expect(db.prepare('select count(*) as n from t').get()).toEqual({ n: 3_000 });
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });
});
