import path from 'node:path';
import { z } from 'zod';

/**
 * The one place that reads process.env (docs/architecture.md §5). Everything else receives a typed
 * `Env`, which is also how tests configure an app without touching the process.
 */
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default(path.resolve(import.meta.dirname, '../../../.data')),
  DATABASE_URL: z.string().optional(),
  /** PostgreSQL connections the API keeps open at most (node-postgres pool). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** PostgreSQL schema (search_path); lets tests and several demos share one database. */
  PG_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .optional(),
  JWT_SECRET: z.string().min(32).optional(),
  SMTP_URL: z.string().optional(),
  PUBLIC_URL: z.string().url().optional(),
  /** Folder of content imported on first start (empty database). */
  SEED_CONTENT: z.string().default(path.resolve(import.meta.dirname, '../../../content/demo')),
  /** Built web app served on `/`. */
  WEB_DIST: z.string().default(path.resolve(import.meta.dirname, '../../web/dist')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  /** Sign-in attempts per address per minute; default max(120, 12 × LOGIN_RATE_LIMIT), for a classroom. */
  LOGIN_IP_RATE_LIMIT: z.coerce.number().int().positive().optional(),
  TRUST_PROXY: z.stringbool().default(false),
  /**
   * A session's absolute lifetime (decision 0057): its tokens stop being renewable this many hours
   * after the sign-in, however active the learner. At least one token's life (8 h).
   */
  SESSION_MAX_HOURS: z.coerce.number().min(8).max(8760).default(12),
  /** Worker threads hashing passwords at once (lib/password.ts, decision 0025); 0: libuv's pool. */
  HASH_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
  /** Nice value of those threads (Linux): request handling gets the cores first. */
  HASH_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /**
   * Argon2id cost of new password hashes (lib/password.ts, docs/operations.md "Sign-in"): memory
   * in KiB, passes, lanes. OWASP's first setting by default; a weaker one than OWASP's least
   * (memory × passes under 7168 × 5) stops the start. Stored hashes move to it at sign-in.
   */
  PASSWORD_ARGON2_MEMORY_KIB: z.coerce.number().int().min(7168).max(4_194_304).default(19456),
  PASSWORD_ARGON2_PASSES: z.coerce.number().int().min(1).max(100).default(2),
  PASSWORD_ARGON2_LANES: z.coerce.number().int().min(1).max(16).default(1),
  // Operations (issue 30, docs/operations.md).
  /** How long a stop (SIGTERM, SIGINT) waits for requests in flight before closing their connections. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** MiB of drawn pages (home, player) each process keeps for reuse (decision 0061); 0 keeps none. */
  DRAWN_PAGE_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
  /** Prometheus metrics on a listener of their own; off unless set (0: any free port). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Address of the metrics listener: loopback unless said otherwise. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Files in this S3 bucket instead of DATA_DIR/files (credentials: the AWS SDK's usual chain). */
  FILES_S3_BUCKET: z.string().min(3).max(63).optional(),
  /** Endpoint of an S3-compatible store other than AWS (MinIO, Garage, s3rver...): path-style. */
  FILES_S3_ENDPOINT: z.string().url().optional(),
  FILES_S3_REGION: z.string().min(1).default('us-east-1'),
  // Quotas per learner and per tenant (issue 29, modules/quotas/config.ts, README).
  QUOTA_UPLOAD_MB_PER_DAY: z.coerce.number().positive().default(200),
  QUOTA_UPLOAD_STORED_MB: z.coerce.number().positive().default(1000),
  QUOTA_TENANT_UPLOAD_MB_PER_DAY: z.coerce.number().positive().default(50_000),
  QUOTA_STATEMENTS_PER_MINUTE: z.coerce.number().int().positive().default(600),
  QUOTA_TENANT_STATEMENTS_PER_MINUTE: z.coerce.number().int().positive().default(60_000),
  QUOTA_STATEMENT_MB_PER_LAUNCH: z.coerce.number().positive().default(20),
  QUOTA_STATEMENT_MB_PER_LEARNER: z.coerce.number().positive().default(200),
  QUOTA_NOTES_PER_DAY: z.coerce.number().int().positive().default(200),
  QUOTA_TENANT_NOTES_PER_DAY: z.coerce.number().int().positive().default(50_000),
  // The one write budget and fair ceilings (issue 36, decision 0055).
  QUOTA_UPLOADS_PER_DAY: z.coerce.number().int().positive().default(100),
  QUOTA_DOCUMENT_WRITES_PER_MINUTE: z.coerce.number().int().positive().default(120),
  QUOTA_COMMITS_PER_MINUTE: z.coerce.number().int().positive().default(60),
  QUOTA_LAUNCHES_PER_MINUTE: z.coerce.number().int().positive().default(30),
  QUOTA_MODULE_DATA_MB_PER_DAY: z.coerce.number().positive().default(100),
  QUOTA_ATTACHMENT_MB_PER_DAY: z.coerce.number().positive().default(20),
  QUOTA_TENANT_ALARM_LEARNERS: z.coerce.number().int().positive().default(100),
  REGISTRATIONS_PER_CODE_PER_HOUR: z.coerce.number().int().positive().default(60),
  REGISTRATIONS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().positive().default(100),
  /** Hours an upload attached to no note is kept before the sweeper removes it. */
  ORPHAN_UPLOAD_GRACE_HOURS: z.coerce.number().positive().default(24),
  /** Minutes between two sweeps of orphan uploads and ended quota periods; 0: no sweep (tests). */
  QUOTA_JANITOR_MINUTES: z.coerce.number().min(0).default(15),
  // E-learning packages (issue 31, decision 0048, docs/operations.md "Packages").
  /**
   * The public origin package files and the bridge are served from (a reverse proxy sends it to
   * PACKAGES_PORT). Unset: the app's own host name on PACKAGES_PORT (the demo, tests).
   */
  PACKAGES_ORIGIN: z
    .string()
    .url()
    .transform((u) => new URL(u).origin)
    .optional(),
  /** Port of the packages listener in the same process; default PORT + 1. */
  PACKAGES_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Address of the packages listener; default HOST. */
  PACKAGES_HOST: z.string().min(1).optional(),
  /** A package zip: at most this many MB uncompressed, this many files, this compression ratio. */
  PACKAGE_MAX_MB: z.coerce.number().positive().default(500),
  PACKAGE_MAX_FILES: z.coerce.number().int().positive().default(20_000),
  PACKAGE_MAX_RATIO: z.coerce.number().positive().default(100),
});

export type Env = z.infer<typeof schema>;

/** The packages listener's port (PACKAGES_PORT, else PORT + 1; PORT 0 gives 0: any free port). */
export function packagesPortOf(env: Pick<Env, 'PORT' | 'PACKAGES_PORT'>): number {
  return env.PACKAGES_PORT ?? (env.PORT === 0 ? 0 : env.PORT + 1);
}

/** What the importer accepts of a package zip (content/packages/zip.ts). */
export function packageLimitsOf(
  env: Pick<Env, 'PACKAGE_MAX_MB' | 'PACKAGE_MAX_FILES' | 'PACKAGE_MAX_RATIO'>,
) {
  return {
    maxBytes: Math.round(env.PACKAGE_MAX_MB * 1024 * 1024),
    maxFiles: env.PACKAGE_MAX_FILES,
    maxRatio: env.PACKAGE_MAX_RATIO,
  };
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
