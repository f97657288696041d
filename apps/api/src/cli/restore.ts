/**
 * `npm run restore -- <file>`: puts a backup made by `npm run backup` back as the SQLite database
 * (${DATA_DIR}/parcours.sqlite), on a stopped app: refused while any process has the database
 * open (ops/sqlite-backup.ts says how that is seen). PostgreSQL: pg_restore (docs/operations.md).
 */
import path from 'node:path';
import { loadEnv } from '../env';
import { restoreSqlite } from '../ops/sqlite-backup';

function main(): number {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: npm run restore -- <file>');
    return 2;
  }
  const env = loadEnv();
  if (env.DATABASE_URL) {
    console.error('DATABASE_URL is set: restore PostgreSQL with pg_restore (docs/operations.md, "Backups").');
    return 2;
  }
  const target = path.join(env.DATA_DIR, 'parcours.sqlite');
  const backup = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  restoreSqlite(backup, target);
  console.log(`${backup} restored to ${target}; start the app.`);
  return 0;
}

try {
  process.exit(main());
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
