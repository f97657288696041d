import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { DbHandle } from './db/db';

export interface StopOptions {
  app: FastifyInstance;
  handle: Pick<DbHandle, 'close'>;
  metricsServer?: Server | undefined;
  signal: string;
  /** Requests in flight get this long; then their connections are closed (SHUTDOWN_TIMEOUT_MS). */
  timeoutMs: number;
}

let stopping: Promise<number> | null = null;

/**
 * A graceful stop (issue 30): readiness answers 503 at once; the listener takes no new
 * connection and closes idle keep-alive ones, while requests in flight finish — an answer is
 * acknowledged only after its commit (a SQLite group commit included), so each one either
 * completes or was never acknowledged. Then the app's onClose hooks run: the LRS forwarder
 * finishes its round and the player's queued statements are written (modules/lrs/routes.ts).
 * Last, the database is closed. Resolves with the exit code; a second signal changes nothing.
 */
export function gracefulStop(opts: StopOptions): Promise<number> {
  stopping ??= run(opts);
  return stopping;
}

async function run({ app, handle, metricsServer, signal, timeoutMs }: StopOptions): Promise<number> {
  app.lifecycle.draining = true;
  app.log.warn(`${signal}: draining (at most ${timeoutMs} ms for requests in flight)`);
  // Past the timeout, the connections still open are cut, so the flush and the close still run.
  const cut = setTimeout(() => {
    app.log.warn('shutdown timeout: closing the connections still open');
    app.server.closeAllConnections();
  }, timeoutMs);
  cut.unref();
  try {
    await app.close();
    clearTimeout(cut);
    await new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve()));
    await handle.close();
    app.log.warn(`${signal}: stopped cleanly`);
    return 0;
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    return 1;
  }
}
