/**
 * `npm run backup -- <file>`: a consistent copy of the SQLite database (${DATA_DIR}/parcours.sqlite)
 * taken while the app serves (SQLite's online backup API), checked with `PRAGMA integrity_check`.
 * PostgreSQL is backed up with pg_dump (docs/operations.md).
 */
import path from 'node:path';
import { loadEnv } from '../env';
import { backupSqlite } from '../ops/sqlite-backup';

async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: npm run backup -- <file>');
    return 2;
  }
  const env = loadEnv();
  if (env.DATABASE_URL) {
    console.error('DATABASE_URL is set: back PostgreSQL up with pg_dump (docs/operations.md, "Backups").');
    return 2;
  }
  const source = path.join(env.DATA_DIR, 'parcours.sqlite');
  // npm runs workspace scripts from the workspace folder: resolve against the caller's folder.
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const started = Date.now();
  const { pages } = await backupSqlite(source, target);
  console.log(
    `backup of ${source} written to ${target} (${pages} pages, ${Date.now() - started} ms, integrity ok)`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
