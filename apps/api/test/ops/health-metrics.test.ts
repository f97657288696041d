import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { createMetrics, listenMetrics } from '../../src/plugins/metrics';
import { createTestDb } from '../helpers/test-db';
import type { TestDb } from '../helpers/test-db';
import { hosts, seedWorld } from '../helpers/fixtures';
import { login, testEnv } from '../helpers/app';
import { parsePrometheus, sampleValue } from '../helpers/prometheus';

/**
 * Issue 30: liveness and readiness (503 while draining), the request id echoed, and the
 * Prometheus metrics served on their own loopback listener, scraped and parsed: a request moves
 * its route's counter.
 */
let tdb: TestDb;
let app: FastifyInstance;
let metricsServer: Server;
let metricsUrl: string;
let filesDir: string;

beforeAll(async () => {
  tdb = await createTestDb();
  const world = await seedWorld(tdb.db);
  filesDir = world.filesDir;
  const metrics = createMetrics({ db: tdb.db, pool: tdb.pool });
  app = await buildApp({ env: testEnv(), db: tdb.db, dbKind: tdb.kind, filesDir, logger: false, metrics });
  await app.ready();
  metricsServer = await listenMetrics(metrics, '127.0.0.1', 0);
  const address = metricsServer.address();
  metricsUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/metrics`;
});

afterAll(async () => {
  await new Promise((r) => metricsServer.close(r));
  await app.close();
  await tdb.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('health', () => {
  it('answers liveness and readiness with any Host, and readiness 503 once draining', async () => {
    const live = await app.inject({ url: '/api/health/live', headers: { host: '10.0.0.7:3000' } });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ url: '/api/health/ready', headers: { host: '10.0.0.7:3000' } });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
    expect(ready.headers['cache-control']).toBe('no-store');

    app.lifecycle.draining = true;
    try {
      const draining = await app.inject({ url: '/api/health/ready' });
      expect(draining.statusCode).toBe(503);
      expect(draining.json()).toEqual({ status: 'draining' });
      // Liveness stays 200: the process still answers, it is not to be restarted.
      expect((await app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      app.lifecycle.draining = false;
    }
  });

  it('echoes a request id, keeping a well-formed one from the caller', async () => {
    const mine = await app.inject({ url: '/api/health/live', headers: { 'x-request-id': 'proxy-42.a' } });
    expect(mine.headers['x-request-id']).toBe('proxy-42.a');
    const made = await app.inject({ url: '/api/health/live', headers: { 'x-request-id': 'bad id\u00e9' } });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const other = await app.inject({ url: '/api/contexts/current', headers: { host: hosts.alpha } });
    expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('metrics', () => {
  it('serves the text format on its own listener; a request moves its route counter', async () => {
    const route = { method: 'GET', route: '/api/users/me', status_code: '200' };
    const before = parsePrometheus(await (await fetch(metricsUrl)).text());
    const token = await login(app, 'bob@example.test');
    const me = await app.inject({
      url: '/api/users/me',
      headers: { host: hosts.alpha, authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(200);
    const res = await fetch(metricsUrl);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const after = parsePrometheus(await res.text());
    const count = (m: typeof after) => sampleValue(m, 'parcours_http_requests_total', route) ?? 0;
    expect(count(after) - count(before)).toBe(1);
    expect(sampleValue(after, 'parcours_http_request_duration_seconds_count', route)).toBeGreaterThanOrEqual(
      1,
    );
    // The families the issue lists are there, with a value.
    for (const name of [
      'parcours_password_hash_queue',
      'parcours_lrs_outbox_backlog',
      'parcours_lrs_outbox_oldest_seconds',
      'parcours_lrs_forward_failures_total',
      'nodejs_eventloop_lag_seconds',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
    ])
      expect(sampleValue(after, name, {}), name).toBeTypeOf('number');
    expect(after.types.get('parcours_answers_per_batch')).toBe('histogram');
    // A tenant past a figure of the write budget alarms the operator (decision 0055).
    expect(after.types.get('parcours_quota_tenant_alarms_total')).toBe('counter');
    if (tdb.kind === 'postgres') {
      // The pool's use and the wait for a connection (the requests above asked for some).
      expect(sampleValue(after, 'parcours_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(sampleValue(after, 'parcours_db_pool_waiting', {})).toBeTypeOf('number');
      expect(sampleValue(after, 'parcours_db_pool_wait_seconds_count', {})).toBeGreaterThan(0);
    }
    // Only /metrics answers on that listener.
    expect((await fetch(metricsUrl.replace('/metrics', '/api/health/live'))).status).toBe(404);
  });
});
