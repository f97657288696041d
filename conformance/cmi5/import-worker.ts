/**
 * The importer kept running for the suite's adapter (lms.parcours.cjs): one content folder path a
 * line on stdin, one JSON line on stdout (`{ ok }` or `{ ok: false, errors }`). The same import
 * as `npm run import` (src/cli/import.ts), its start-up paid once instead of once per course.
 */
import path from 'node:path';
import readline from 'node:readline';
import { ensurePgSchema, migrateToLatest, openDb } from '../../apps/api/src/db/db';
import { loadEnv, packageLimitsOf } from '../../apps/api/src/env';
import { fileStoreOf } from '../../apps/api/src/files/from-env';
import { importFolder } from '../../apps/api/src/content/importer';
import { argon2CostOf, configureHashing } from '../../apps/api/src/lib/password';

const env = loadEnv();
await configureHashing({ argon2: argon2CostOf(env) });
if (env.DATABASE_URL && env.PG_SCHEMA) await ensurePgSchema(env.DATABASE_URL, env.PG_SCHEMA);
const handle = openDb({
  databaseUrl: env.DATABASE_URL,
  sqliteFile: path.join(env.DATA_DIR, 'parcours.sqlite'),
  ...(env.PG_SCHEMA ? { pgSchema: env.PG_SCHEMA } : {}),
});
await migrateToLatest(handle.db, { pgSchema: env.PG_SCHEMA });
const filesDir = path.join(env.DATA_DIR, 'files');
const store = await fileStoreOf(env, filesDir);
const lines = readline.createInterface({ input: process.stdin });
for await (const folder of lines) {
  try {
    const report = await importFolder(handle.db, folder, {
      filesDir,
      store,
      packageLimits: packageLimitsOf(env),
    });
    process.stdout.write(
      `${JSON.stringify(report.ok ? { ok: true } : { ok: false, errors: report.errors })}\n`,
    );
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ ok: false, errors: [{ message: String(err) }] })}\n`);
  }
}
await handle.close();
process.exit(0);
