import pg from 'pg';
import { CACHE_CHANNEL_PREFIX } from '../db/migrations/0028-viewer-notify';

/**
 * One PostgreSQL connection of its own, outside the pool, that LISTENs to the stamps' channel of
 * its schema (migration 0028) and hands each `key version` to `onMove`. `onState(true)` is called
 * once the LISTEN is in place (so every commit after it is delivered), `onState(false)` as soon as
 * the connection fails or ends; it then reconnects, with a growing pause, until closed. A
 * heartbeat query every `heartbeatMs` ends a connection that stopped answering (a network drop
 * sends no error), so a silent listener is never taken for a live one.
 */
export interface PgListenerOptions {
  pool: pg.Pool;
  onMove(key: string, version: number): void;
  onState(listening: boolean): void;
  heartbeatMs?: number;
}

export class PgListener {
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = 50;
  private heartbeat: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  /** The listening backend's pid (tests end it with pg_terminate_backend). */
  pid: number | null = null;
  /** The channel listened to, once listening. */
  channel: string | null = null;

  constructor(private readonly opts: PgListenerOptions) {
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { connectionString, options, host, port, user, password, database } = this.opts.pool.options;
    const client = new pg.Client({
      connectionString,
      options,
      host,
      port,
      user,
      password,
      database,
      keepAlive: true,
    } as pg.ClientConfig);
    this.client = client;
    let down = false;
    const lost = () => {
      if (down) return;
      down = true;
      this.stopHeartbeat();
      this.pid = null;
      this.channel = null;
      if (this.client === client) this.client = null;
      this.opts.onState(false);
      client.end().catch(() => {});
      if (!this.closed) {
        this.retry = setTimeout(() => void this.connect(), this.retryMs);
        this.retry.unref();
        this.retryMs = Math.min(this.retryMs * 2, 2_000);
      }
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => {
      const space = n.payload?.lastIndexOf(' ') ?? -1;
      if (space <= 0) return;
      const version = Number(n.payload!.slice(space + 1));
      if (Number.isFinite(version)) this.opts.onMove(n.payload!.slice(0, space), version);
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string; pid: number }>(
        'select current_schema() as schema, pg_backend_pid() as pid',
      );
      const channel = `${CACHE_CHANNEL_PREFIX}${rows[0]!.schema}`;
      await client.query(`listen "${channel.replaceAll('"', '""')}"`);
      if (down || this.closed) return;
      this.pid = rows[0]!.pid;
      this.channel = channel;
      this.retryMs = 50;
      this.startHeartbeat(client, lost);
      this.opts.onState(true);
    } catch {
      lost();
    }
  }

  private startHeartbeat(client: pg.Client, lost: () => void): void {
    const every = this.opts.heartbeatMs ?? 5_000;
    this.heartbeat = setInterval(() => {
      const timer = setTimeout(lost, every);
      timer.unref();
      client.query('select 1').then(
        () => clearTimeout(timer),
        () => {
          clearTimeout(timer);
          lost();
        },
      );
    }, every);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** Ends the connection as if it had dropped (a marker that never came back): it reconnects. */
  restart(): void {
    this.client?.end().catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopHeartbeat();
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => {});
  }
}
