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
  /** Worker threads hashing passwords at once (lib/password.ts, decision 0025); 0: libuv's pool. */
  HASH_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
  /** Nice value of those threads (Linux): request handling gets the cores first. */
  HASH_NICE: z.coerce.number().int().min(0).max(19).default(10),
});

export type Env = z.infer<typeof schema>;

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
