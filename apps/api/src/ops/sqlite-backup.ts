import { existsSync, readdirSync, readlinkSync, renameSync, rmSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * SQLite backups (issue 30, docs/operations.md). `backupSqlite` copies the live database through
 * SQLite's online backup API while the app serves: the copy is one consistent state, whatever
 * the app writes meanwhile (WAL: the app's writers are never blocked by it). `restoreSqlite` puts
 * a copy back on a stopped app.
 */

function integrity(file: string): string {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

export async function backupSqlite(source: string, target: string): Promise<{ pages: number }> {
  if (!existsSync(source)) throw new Error(`no database at ${source}`);
  const temp = `${target}.part`;
  rmSync(temp, { force: true });
  const db = new SQLite(source, { fileMustExist: true });
  let pages = 0;
  try {
    db.pragma('busy_timeout = 5000');
    // All remaining pages in one step: a write by the app between two steps would restart the copy,
    // and a steady stream of answers could restart it forever. One step reads one snapshot.
    const result = await db.backup(temp, { progress: () => 0x7fffffff });
    pages = result.totalPages;
  } finally {
    db.close();
  }
  const check = integrity(temp);
  if (check !== 'ok') {
    rmSync(temp, { force: true });
    throw new Error(`the copy failed its integrity check: ${check}`);
  }
  renameSync(temp, target);
  return { pages };
}

/**
 * Processes that have the database open (Linux: /proc/<pid>/fd), this one excepted. SQLite in WAL
 * mode takes no lock a restore could test while the app is idle, so the check is who holds the
 * file. Elsewhere (no /proc) it finds nobody: docs/operations.md says to stop the app first.
 */
export function processesHolding(file: string): number[] {
  if (!existsSync('/proc/self/fd')) return [];
  const names = new Set([file, `${file}-wal`, `${file}-shm`].map((f) => path.resolve(f)));
  const holders: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (names.has(target)) {
        holders.push(Number(pid));
        break;
      }
    }
  }
  return holders;
}

export function restoreSqlite(backup: string, target: string): void {
  const holders = processesHolding(target);
  if (holders.length > 0)
    throw new Error(
      `the database is open in process ${holders.join(', ')}: stop the app before restoring (docs/operations.md)`,
    );
  const check = integrity(backup);
  if (check !== 'ok') throw new Error(`${backup} failed its integrity check: ${check}`);
  // Beside the target (same file system), then renamed over it: never a half-copied database.
  const temp = `${target}.restore`;
  copyFileSync(backup, temp);
  // The old write-ahead log belongs to the old file: replayed on the restored one, it would corrupt it.
  rmSync(`${target}-wal`, { force: true });
  rmSync(`${target}-shm`, { force: true });
  renameSync(temp, target);
}
