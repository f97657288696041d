import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/**
 * WAL checkpoints off the event loop (decision 0025). By default SQLite checkpoints inside the
 * COMMIT that takes the WAL past 1 000 pages: that commit copies the WAL into the database file
 * and syncs it, on the thread that runs every request. Measured on this machine (5 rows of 3 kB a
 * transaction, 3 000 transactions): commit mean 268 µs and worst 111 ms with the automatic
 * checkpoint, 45 µs and worst 5 ms without — one request in a thousand held the whole server for
 * up to a tenth of a second. The server's connection turns the automatic checkpoint off and a
 * worker thread with a connection of its own runs a PASSIVE checkpoint every `intervalMs` (the
 * kind the automatic one is: it never waits for readers or writers, it copies what no reader
 * still needs). Durability is unchanged: checkpoints move committed pages, they commit nothing.
 * Tests, the importer and the benches' writers keep SQLite's automatic checkpoint.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const run = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
};
const timer = setInterval(run, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'now') { run(); parentPort.postMessage('done'); }
  if (m === 'stop') { clearInterval(timer); run(); db.close(); parentPort.close(); }
});
`;

export interface Checkpointer {
  /** Runs one checkpoint now and resolves when done (tests). */
  now(): Promise<void>;
  /** Stops the worker after a last checkpoint. */
  stop(): Promise<void>;
}

export function startCheckpointer(database: SQLite.Database, file: string, intervalMs = 1_000): Checkpointer {
  database.pragma('wal_autocheckpoint = 0');
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, file, intervalMs } });
  // The server's handles keep the process alive, not this thread.
  worker.unref();
  let stopped = false;
  return {
    now: () =>
      new Promise<void>((resolve) => {
        worker.ref();
        worker.once('message', () => {
          worker.unref();
          resolve();
        });
        worker.postMessage('now');
      }),
    stop: () =>
      stopped
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            stopped = true;
            // Referenced while it finishes: its last checkpoint is waited for.
            worker.ref();
            worker.once('exit', () => resolve());
            worker.postMessage('stop');
          }),
  };
}
