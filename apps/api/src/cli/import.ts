/**
 * `npm run import -- <folder>`: imports a content folder into the configured database
 * (DATABASE_URL / PG_SCHEMA, else ${DATA_DIR}/parcours.sqlite) and prints what changed.
 * Exit code 1 when the folder has errors (nothing is written then).
 */
import path from 'node:path';
import { ensurePgSchema, migrateToLatest, openDb } from '../db/db';
import { loadEnv, packageLimitsOf } from '../env';
import { fileStoreOf } from '../files/from-env';
import { importFolder } from '../content/importer';
import { argon2CostOf, configureHashing } from '../lib/password';

async function main(): Promise<number> {
  const folder = process.argv[2];
  if (!folder) {
    console.error('usage: npm run import -- <content folder>');
    return 2;
  }
  const env = loadEnv();
  // Users' passwords hashed at the server's cost, so they are not replaced at their first sign-in.
  await configureHashing({ argon2: argon2CostOf(env) });
  // npm runs workspace scripts from the workspace folder: resolve against the caller's folder.
  const absolute = path.resolve(process.env.INIT_CWD ?? process.cwd(), folder);
  if (env.DATABASE_URL && env.PG_SCHEMA) await ensurePgSchema(env.DATABASE_URL, env.PG_SCHEMA);
  const handle = openDb({
    databaseUrl: env.DATABASE_URL,
    sqliteFile: path.join(env.DATA_DIR, 'parcours.sqlite'),
    ...(env.PG_SCHEMA ? { pgSchema: env.PG_SCHEMA } : {}),
  });
  try {
    await migrateToLatest(handle.db, { pgSchema: env.PG_SCHEMA });
    const filesDir = path.join(env.DATA_DIR, 'files');
    const report = await importFolder(handle.db, absolute, {
      filesDir,
      store: await fileStoreOf(env, filesDir),
      packageLimits: packageLimitsOf(env),
      // Loopback hosts name the port the app answers on (issue 39: the actor's homePage).
      appPort: env.PORT,
    });
    if (!report.ok) {
      for (const e of report.errors) console.error(`${e.file}: ${e.path}: ${e.message}`);
      console.error(`import failed: ${report.errors.length} error(s), nothing was written`);
      return 1;
    }
    const width = Math.max(...Object.keys(report.changes).map((k) => k.length), 5);
    console.log(`${'table'.padEnd(width)}  created  updated  unchanged  deleted`);
    for (const [table, c] of Object.entries(report.changes))
      console.log(
        `${table.padEnd(width)}  ${String(c.created).padStart(7)}  ${String(c.updated).padStart(7)}  ${String(c.unchanged).padStart(9)}  ${String(c.deleted ?? 0).padStart(7)}`,
      );
    return 0;
  } finally {
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
