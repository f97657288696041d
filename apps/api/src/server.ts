import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { importFolder } from './content/importer';
import { ensurePgSchema, migrateToLatest, openDb } from './db/db';
import type { Db } from './db/db';
import { withStartupLock } from './db/startup-lock';
import { fileStoreOf } from './files/from-env';
import type { FileStore } from './files/store';
import { loadEnv, packageLimitsOf, packagesPortOf } from './env';
import { buildPackagesApp } from './modules/packages/origin';
import type { Env } from './env';
import { argon2CostOf, configureHashing } from './lib/password';
import { createMetrics, listenMetrics } from './plugins/metrics';
import { gracefulStop } from './shutdown';

/**
 * Tokens are stateless, so every API process behind a load balancer must verify with the same
 * key: set JWT_SECRET for several processes. A single process without it generates a secret
 * once and keeps it in DATA_DIR/jwt-secret (mode 0600), so restarts keep learners signed in.
 */
function jwtSecret(env: Env): string {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  const file = path.join(env.DATA_DIR, 'jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  mkdirSync(env.DATA_DIR, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

async function seedIfEmpty(
  db: Db,
  env: Env,
  filesDir: string,
  store: FileStore,
  log: (msg: string) => void,
): Promise<boolean> {
  const row = await db.selectFrom('contexts').select('id').limit(1).executeTakeFirst();
  if (row) return true;
  if (!existsSync(env.SEED_CONTENT)) {
    log(`No tenant yet and no demo content at ${env.SEED_CONTENT}; import content with "npm run import".`);
    return true;
  }
  log(`Empty database: importing demo content from ${env.SEED_CONTENT}`);
  const report = await importFolder(db, env.SEED_CONTENT, {
    filesDir,
    store,
    packageLimits: packageLimitsOf(env),
    // The demo's localhost hosts name the port this server answers on (issue 39: the actor's homePage).
    appPort: env.PORT,
  });
  if (!report.ok) {
    for (const e of report.errors) console.error(`${e.file}${e.path ? ` ${e.path}` : ''}: ${e.message}`);
    return false;
  }
  return true;
}

async function main(): Promise<void> {
  const env = loadEnv();
  await configureHashing({ workers: env.HASH_WORKERS, nice: env.HASH_NICE, argon2: argon2CostOf(env) });
  const filesDir = path.join(env.DATA_DIR, 'files');
  mkdirSync(filesDir, { recursive: true });
  // Disk, or the bucket FILES_S3_BUCKET (issue 30): uploads, imported media, modules, logos.
  const files = await fileStoreOf(env, filesDir);
  if (env.DATABASE_URL && env.PG_SCHEMA) await ensurePgSchema(env.DATABASE_URL, env.PG_SCHEMA);
  const handle = openDb({
    databaseUrl: env.DATABASE_URL,
    poolSize: env.DATABASE_POOL_SIZE,
    sqliteFile: path.join(env.DATA_DIR, 'parcours.sqlite'),
    ...(env.PG_SCHEMA ? { pgSchema: env.PG_SCHEMA } : {}),
    // WAL checkpoints in a worker thread, never inside a request's COMMIT (decision 0025).
    checkpointInBackground: true,
  });
  // Without PG_SCHEMA, PostgreSQL works in `public` (the default search_path). One process at a
  // time migrates and seeds (several started together on an empty database: db/startup-lock.ts).
  const seeded = await withStartupLock(handle, env.PG_SCHEMA, async () => {
    await migrateToLatest(handle.db, {
      pgSchema: handle.kind === 'postgres' ? (env.PG_SCHEMA ?? 'public') : undefined,
    });
    return seedIfEmpty(handle.db, env, filesDir, files, (m) => console.log(m));
  });
  if (!seeded) {
    await handle.close();
    process.exit(1);
  }

  const metrics =
    env.METRICS_PORT !== undefined ? createMetrics({ db: handle.db, pool: handle.pool }) : undefined;
  const app = await buildApp({
    env: { ...env, JWT_SECRET: jwtSecret(env) },
    db: handle.db,
    dbKind: handle.kind,
    filesDir,
    files,
    ...(metrics ? { metrics } : {}),
  });
  // The packages origin (issue 31, decision 0048): package files and the bridge only, on a
  // listener of its own; it closes with the app.
  const packagesApp = await buildPackagesApp({
    db: handle.db,
    dbKind: handle.kind,
    files,
    origin: env.PACKAGES_ORIGIN ?? null,
    logger: {},
    logLevel: env.LOG_LEVEL,
  });
  app.addHook('onClose', async () => {
    await packagesApp.close();
  });
  const metricsServer =
    metrics && env.METRICS_PORT !== undefined
      ? await listenMetrics(metrics, env.METRICS_HOST, env.METRICS_PORT)
      : undefined;

  const stop = (signal: string) => {
    // Past the drain and a margin for the final writes, a stuck close must not keep the process.
    setTimeout(() => process.exit(1), env.SHUTDOWN_TIMEOUT_MS + 15_000).unref();
    void gracefulStop({ app, handle, metricsServer, signal, timeoutMs: env.SHUTDOWN_TIMEOUT_MS }).then(
      (code) => process.exit(code),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  await app.listen({ host: env.HOST, port: env.PORT });
  await packagesApp.listen({ host: env.PACKAGES_HOST ?? env.HOST, port: packagesPortOf(env) });
  if (metricsServer) {
    const address = metricsServer.address();
    const metricsPort = typeof address === 'object' && address ? address.port : env.METRICS_PORT;
    console.log(`Metrics at http://${env.METRICS_HOST}:${metricsPort}/metrics`);
  }
  const port = (() => {
    const address = app.server.address();
    return typeof address === 'object' && address ? address.port : env.PORT;
  })();
  console.log(`Parcours is running at http://localhost:${port}`);
  const packagesAddress = packagesApp.server.address();
  const packagesPort =
    typeof packagesAddress === 'object' && packagesAddress ? packagesAddress.port : packagesPortOf(env);
  console.log(`Packages are served at ${env.PACKAGES_ORIGIN ?? `http://localhost:${packagesPort}`}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
