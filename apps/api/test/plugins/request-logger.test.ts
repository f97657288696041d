import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';
import { hosts, seedWorld } from '../helpers/fixtures';
import { login, testEnv } from '../helpers/app';

/**
 * plugins/request-logger.ts: above `info` a request's child logger is made only when it logs.
 * What is logged must be what the ordinary child logged: the request id, the redaction, the
 * levels that are off staying silent; at `info` every request is still logged with its id.
 */
let tdb: TestDb;
const apps: FastifyInstance[] = [];
const seenLoggers: FastifyBaseLogger[] = [];

async function appAt(level: string, lines: Record<string, unknown>[]): Promise<FastifyInstance> {
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = await buildApp({
    env: testEnv({ LOG_LEVEL: level }),
    db: tdb.db,
    dbKind: tdb.kind,
    logger: { level, stream },
  });
  app.get('/api-test/log', async (request) => {
    request.log.info('an info line');
    request.log.debug('a debug line');
    request.log.warn({ headers: request.headers }, 'a warning');
    request.log.child({ step: 'inner' }).error('an inner error');
    return { ok: true };
  });
  app.get('/api-test/quiet', async (request) => {
    seenLoggers.push(request.log);
    return { ok: true };
  });
  app.get('/api-test/fail', async () => {
    throw new Error('boom');
  });
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  tdb = await createTestDb();
  await seedWorld(tdb.db);
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await tdb.close();
});

const get = (app: FastifyInstance, url: string, token = 'secret-token-value') =>
  app.inject({ method: 'GET', url, headers: { host: hosts.alpha, authorization: `Bearer ${token}` } });

describe('request logger above info', () => {
  it('logs warnings and errors with their request id and redaction, and nothing below the level', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appAt('warn', lines);
    await get(app, '/api-test/log');
    await get(app, '/api-test/log');
    const warnings = lines.filter((l) => l.msg === 'a warning');
    const inner = lines.filter((l) => l.msg === 'an inner error');
    expect(warnings).toHaveLength(2);
    expect(inner).toHaveLength(2);
    // Each request's lines carry its own id, as Fastify's child logger binds it.
    expect(warnings[0]?.reqId).toBeTruthy();
    expect(warnings[0]?.reqId).not.toBe(warnings[1]?.reqId);
    expect(inner.map((l) => l.reqId)).toEqual(warnings.map((l) => l.reqId));
    expect(inner[0]?.step).toBe('inner');
    expect(JSON.stringify(lines)).not.toContain('secret-token-value');
    expect(lines.some((l) => l.msg === 'an info line' || l.msg === 'a debug line')).toBe(false);
    expect(lines.some((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toBe(false);
  });

  it('gives each request its own stand-in, sharing its methods (no closures made per request)', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appAt('warn', lines);
    seenLoggers.length = 0;
    await get(app, '/api-test/quiet');
    await get(app, '/api-test/quiet');
    const [first, second] = seenLoggers;
    expect(first).toBeDefined();
    expect(first).not.toBe(second);
    for (const level of ['warn', 'error', 'child'] as const) expect(first![level]).toBe(second![level]);
    // pino's own methods stay reachable through the stand-in.
    const pino = first as unknown as { bindings(): unknown; isLevelEnabled(level: string): boolean };
    expect(typeof pino.bindings()).toBe('object');
    expect(pino.isLevelEnabled('warn')).toBe(true);
    expect(lines).toEqual([]);
  });

  it('logs a failed request as before, with its id', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appAt('error', lines);
    const res = await get(app, '/api-test/fail');
    expect(res.statusCode).toBe(500);
    const failed = lines.filter((l) => l.level === 50);
    expect(failed.length).toBeGreaterThan(0);
    for (const l of failed) expect(l.reqId).toBeTruthy();
    expect(lines.some((l) => l.msg === 'a warning')).toBe(false);
  });
});

describe('request logger at info', () => {
  it('logs every request with its id, signed in or not', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appAt('info', lines);
    const token = await login(app, 'bob@example.test');
    await get(app, '/api/users/me', token);
    const incoming = lines.filter((l) => l.msg === 'incoming request');
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(incoming.length).toBe(2);
    expect(completed.map((l) => l.reqId)).toEqual(incoming.map((l) => l.reqId));
    expect(JSON.stringify(lines)).not.toContain(token);
  });
});
