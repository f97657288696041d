import { z } from 'zod';
import type { Db, DbKind } from '../../db/db';
import { parseJson } from '../../db/schema';
import { opsFigures } from '../../lib/ops-figures';
import type { ContextRow } from '../contexts/repository';
import type { Tx } from '../../db/tx';
import { purgeExpiredCredentials } from './credentials';
import { XAPI_VERSION } from './store';
import type { StoredStatement } from './store';

/**
 * Forwarding to a tenant's external LRS (`hosts.lrs`, decision 0017). Statements enter the
 * outbox in the transaction that stores them, so none is stored without its outbox row; a
 * worker PUTs each by its statementId (idempotent at the receiver), and a failure is retried
 * with exponential backoff, forever: nothing is dropped while the other LRS is down.
 * `hosts.lrs` is an object and never a string, so the public context documents (which list
 * string hosts only) never show its credentials.
 */
const lrsHostSchema = z.object({
  endpoint: z.url(),
  username: z.string().optional(),
  password: z.string().optional(),
});
export type ExternalLrs = z.infer<typeof lrsHostSchema>;

export function externalLrsOf(context: Pick<ContextRow, 'hosts'>): ExternalLrs | null {
  const parsed = lrsHostSchema.safeParse(parseJson<{ lrs?: unknown }>(context.hosts, {}).lrs);
  return parsed.success ? parsed.data : null;
}

export async function enqueueForwarding(
  trx: Tx,
  context: Pick<ContextRow, 'id' | 'hosts'>,
  rows: StoredStatement[],
  now: string,
): Promise<void> {
  if (!externalLrsOf(context) || rows.length === 0) return;
  await trx
    .insertInto('xapiOutbox')
    .values(
      rows.map((s) => ({
        contextId: context.id,
        statementId: s.id,
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      })),
    )
    .execute();
}

export interface ForwardOptions {
  /** First retry after this delay, doubled each failure up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A claimed row is left alone by other workers this long (one delivery in flight). */
  leaseMs?: number;
  batch?: number;
  fetch?: typeof fetch;
  /** Where a statement the other store refused for good is reported. */
  log?: { warn(obj: object, msg: string): void };
}

/** The retry delay after `attempts` failures: base × 2^(attempts − 1), capped. */
export function backoffMs(attempts: number, base = 1000, max = 10 * 60_000): number {
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

/**
 * One round: the due outbox rows are claimed (a conditional update, so two workers or two
 * processes never send the same row at once) and PUT to their tenant's LRS. Returns how many
 * were delivered.
 */
export async function forwardDue(
  db: Db,
  _kind: DbKind,
  now: Date,
  opts: ForwardOptions = {},
): Promise<number> {
  const send = opts.fetch ?? fetch;
  const at = now.toISOString();
  const due = await db
    .selectFrom('xapiOutbox as o')
    .innerJoin('xapiStatements as s', (j) =>
      j.onRef('s.contextId', '=', 'o.contextId').onRef('s.id', '=', 'o.statementId'),
    )
    .innerJoin('contexts as c', 'c.id', 'o.contextId')
    .select(['o.contextId', 'o.statementId', 'o.attempts', 'o.nextAttemptAt', 's.body', 'c.hosts'])
    .where('o.deliveredAt', 'is', null)
    .where('o.refusedAt', 'is', null)
    .where('o.nextAttemptAt', '<=', at)
    .orderBy('o.nextAttemptAt')
    .limit(opts.batch ?? 50)
    .execute();
  let delivered = 0;
  for (const row of due) {
    const lease = new Date(now.getTime() + (opts.leaseMs ?? 60_000)).toISOString();
    const claimed = await db
      .updateTable('xapiOutbox')
      .set({ nextAttemptAt: lease })
      .where('contextId', '=', row.contextId)
      .where('statementId', '=', row.statementId)
      .where('nextAttemptAt', '=', row.nextAttemptAt)
      .where('deliveredAt', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    const target = externalLrsOf(row);
    const { error, refused } = target
      ? await put(send, target, row.statementId, row.body)
      : { error: 'no external LRS configured', refused: false };
    const attempts = row.attempts + 1;
    if (refused) {
      opts.log?.warn(
        { contextId: row.contextId, statementId: row.statementId, error },
        'the external LRS refused a statement; not retried',
      );
    }
    await db
      .updateTable('xapiOutbox')
      .set(
        error === null
          ? { deliveredAt: new Date().toISOString(), attempts, lastError: null }
          : refused
            ? { attempts, lastError: error.slice(0, 500), refusedAt: now.toISOString() }
            : {
                attempts,
                lastError: error.slice(0, 500),
                nextAttemptAt: new Date(
                  now.getTime() + backoffMs(attempts, opts.baseDelayMs, opts.maxDelayMs),
                ).toISOString(),
              },
      )
      .where('contextId', '=', row.contextId)
      .where('statementId', '=', row.statementId)
      .execute();
    if (error === null) delivered++;
    else opsFigures.onForwardFailure?.();
  }
  return delivered;
}

/**
 * PUT statements?statementId=…; `error` null when the receiver has it (204, or 200), else why
 * not. `refused`: a 4xx other than 429 — the receiver judged this statement, and sending it
 * again would get the same answer (issue 28), so it is reported instead of retried forever.
 */
async function put(
  send: typeof fetch,
  target: ExternalLrs,
  id: string,
  body: string,
): Promise<{ error: string | null; refused: boolean }> {
  const url = new URL('statements', target.endpoint.endsWith('/') ? target.endpoint : `${target.endpoint}/`);
  url.searchParams.set('statementId', id);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-experience-api-version': XAPI_VERSION,
  };
  if (target.username !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${target.username}:${target.password ?? ''}`).toString('base64')}`;
  }
  try {
    const res = await send(url, { method: 'PUT', headers, body, signal: AbortSignal.timeout(10_000) });
    let detail = '';
    if (res.status >= 400) detail = (await res.text().catch(() => '')).slice(0, 300);
    else await res.body?.cancel();
    if (res.status === 204 || res.status === 200) return { error: null, refused: false };
    const refused = res.status >= 400 && res.status < 500 && res.status !== 429;
    return { error: `HTTP ${res.status}${detail ? ` ${detail}` : ''}`, refused };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err), refused: false };
  }
}

/** Expired credentials are purged about once an hour, by the same worker. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * The background worker of one app: a round every `everyMs`, never two at once. Stopping it
 * waits for the round under way (a graceful stop records the deliveries it made).
 */
export function startForwarder(
  db: Db,
  kind: DbKind,
  everyMs = 1000,
  opts: ForwardOptions = {},
): () => Promise<void> {
  let running: Promise<void> | null = null;
  let purgedAt = 0;
  const timer = setInterval(() => {
    if (running) return;
    const now = new Date();
    const purge = now.getTime() - purgedAt >= PURGE_EVERY_MS;
    if (purge) purgedAt = now.getTime();
    running = (purge ? purgeExpiredCredentials(db, now) : Promise.resolve(0))
      .then(() => forwardDue(db, kind, now, opts))
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        running = null;
      });
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
