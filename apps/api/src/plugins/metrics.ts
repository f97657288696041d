import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/db';
import { opsFigures } from '../lib/ops-figures';
import { hashQueueLength } from '../lib/password';

/**
 * Prometheus metrics (issue 30): one registry per app process, served on a listener of its own
 * (METRICS_PORT, loopback unless METRICS_HOST), never on the public port. Off by default: the
 * request hook then does not exist at all.
 */
export interface AppMetrics {
  registry: Registry;
  /** Observes one finished request (registered by buildApp on every route). */
  observe(method: string, route: string, status: number, seconds: number): void;
}

export function createMetrics(opts: { db: Db; pool?: pg.Pool | undefined }): AppMetrics {
  const registry = new Registry();
  // Process figures (CPU, memory, handles, GC) and the event loop's delay (monitorEventLoopDelay).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const duration = new Histogram({
    name: 'parcours_http_request_duration_seconds',
    help: 'HTTP requests by route pattern and status, time from arrival to the response sent.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const requests = new Counter({
    name: 'parcours_http_requests_total',
    help: 'HTTP requests answered, by route pattern and status.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });

  const batch = new Histogram({
    name: 'parcours_answers_per_batch',
    help: 'Writes committed together by one SQLite group commit (decision 0007); PostgreSQL commits each alone.',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [registry],
  });
  opsFigures.onBatch = (n) => batch.observe(n);
  const forwardFailures = new Counter({
    name: 'parcours_lrs_forward_failures_total',
    help: 'Statements a tenant LRS did not take (each is retried with backoff).',
    registers: [registry],
  });
  opsFigures.onForwardFailure = () => forwardFailures.inc();
  const tenantAlarms = new Counter({
    name: 'parcours_quota_tenant_alarms_total',
    help: "Times a tenant's writes of one road passed its alarm figure in a period (decision 0055); nobody is refused.",
    labelNames: ['road'] as const,
    registers: [registry],
  });
  opsFigures.onTenantAlarm = (road) => tenantAlarms.inc({ road });

  new Gauge({
    name: 'parcours_password_hash_queue',
    help: 'Password hashes (sign-ins, changes) waiting for the hashing worker.',
    registers: [registry],
    collect() {
      this.set(hashQueueLength());
    },
  });

  const pool = opts.pool;
  if (pool) {
    new Gauge({
      name: 'parcours_db_pool_connections',
      help: 'PostgreSQL connections of this process, by state.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'busy' }, pool.totalCount - pool.idleCount);
      },
    });
    // The wait for a connection: Kysely asks the pool with the promise form of connect(), which
    // is timed here (this instance only, and only with metrics on; the callback form is untouched).
    const wait = new Histogram({
      name: 'parcours_db_pool_wait_seconds',
      help: 'Time a query waited for a PostgreSQL connection of this process.',
      buckets: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers: [registry],
    });
    const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args: unknown[]) => {
      if (args.length > 0) return connect(...args);
      const started = performance.now();
      const client = connect() as Promise<unknown>;
      client.then(
        () => wait.observe((performance.now() - started) / 1000),
        () => undefined,
      );
      return client;
    };
    new Gauge({
      name: 'parcours_db_pool_waiting',
      help: 'Queries waiting for a PostgreSQL connection of this process.',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  // The outbox is shared by every process: each one reports the same backlog (take the max).
  const backlog = new Gauge({
    name: 'parcours_lrs_outbox_backlog',
    help: 'Statements waiting to be forwarded to tenant LRSs (all processes).',
    registers: [registry],
  });
  new Gauge({
    name: 'parcours_lrs_outbox_oldest_seconds',
    help: 'Age of the oldest statement waiting to be forwarded (0 when none).',
    registers: [registry],
    async collect() {
      const row = await opts.db
        .selectFrom('xapiOutbox')
        .select([sql<number>`count(*)`.as('n'), sql<string | null>`min(created_at)`.as('first')])
        .where('deliveredAt', 'is', null)
        .executeTakeFirst()
        .catch(() => undefined);
      backlog.set(Number(row?.n ?? 0));
      const first = row?.first ? Date.parse(row.first) : NaN;
      this.set(Number.isFinite(first) ? Math.max(0, (Date.now() - first) / 1000) : 0);
    },
  });

  return {
    registry,
    observe(method, route, status, seconds) {
      const labels = { method, route, status_code: String(status) };
      duration.observe(labels, seconds);
      requests.inc(labels);
    },
  };
}

/** Times every request by its route pattern (never the raw URL: ids would explode the series). */
export function registerRequestMetrics(app: FastifyInstance, metrics: AppMetrics): void {
  // A callback hook: it runs on every request (an async one costs a promise and a microtask).
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** The metrics listener: GET /metrics in Prometheus' text format, nothing else. */
export async function listenMetrics(metrics: AppMetrics, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (err: unknown) => res.writeHead(500).end(String(err)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
