import { rmSync } from 'node:fs';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app';
import type { BuildAppOptions } from '../../src/app';
import { loadEnv } from '../../src/env';
import type { Env } from '../../src/env';
import { copiesCaughtUp } from '../../src/lib/viewer-copy';
import type { Db } from '../../src/db/db';
import { createTestDb } from './test-db';
import type { TestDb } from './test-db';
import { PASSWORD, hosts, seedWorld } from './fixtures';
import type { World } from './fixtures';

export const JWT_SECRET = 'test-secret-test-secret-test-secret-0123';

export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv({
    NODE_ENV: 'test',
    JWT_SECRET,
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent/web-dist',
    LOGIN_RATE_LIMIT: '1000',
    // The tests sweep when they mean to (quotas/orphans.ts), never behind a count of statements.
    QUOTA_JANITOR_MINUTES: '0',
    ...overrides,
  });
}

export interface TestContext {
  app: FastifyInstance;
  tdb: TestDb;
  world: World;
  close(): Promise<void>;
}

/** One app on a fresh seeded database, for a whole test file. */
export async function startTestApp(
  envOverrides: Record<string, string> = {},
  /** Parts a test holds itself (a mail transport it watches). */
  parts: Pick<BuildAppOptions, 'mailTransport'> = {},
): Promise<TestContext> {
  const tdb = await createTestDb();
  const world = await seedWorld(tdb.db);
  const app = await buildApp({
    env: testEnv(envOverrides),
    db: tdb.db,
    dbKind: tdb.kind,
    filesDir: world.filesDir,
    logger: false,
    ...parts,
  });
  await app.ready();
  return {
    app,
    tdb,
    world,
    close: async () => {
      await app.close();
      await tdb.close();
      rmSync(world.filesDir, { recursive: true, force: true });
    },
  };
}

export async function login(app: FastifyInstance, email: string, host = hosts.alpha): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { host },
    payload: { email, password: PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { access_token: string }).access_token;
}

export function get(
  app: FastifyInstance,
  url: string,
  token?: string,
  host = hosts.alpha,
  extra: Partial<InjectOptions> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'GET',
    url,
    ...extra,
    headers: { host, ...(token ? { authorization: `Bearer ${token}` } : {}), ...(extra.headers ?? {}) },
  });
}

export interface ErrorDoc {
  errors: {
    status: string;
    code: string;
    title: string;
    detail?: string;
    source?: { pointer?: string; parameter?: string };
  }[];
}

/**
 * After a write by plain SQL (not through the app): waits until every app on `db` has heard of it
 * (decision 0059: another process's write shows within the notification's delay; at once on
 * SQLite, where this returns at once).
 */
export async function settled(db: Db): Promise<void> {
  if (!(await copiesCaughtUp(db))) throw new Error('the viewer copies did not catch up');
}
