import { sql } from 'kysely';
import type { ExpressionBuilder } from 'kysely';
import type { Db, DbKind } from '../../db/db';
import type { Database } from '../../db/schema';
import type { FileStore } from '../../files/store';
import { removeFileBytes } from '../files/service';
import { writeTx } from '../../db/tx';
import { LAUNCH_TTL_MS } from '../lrs/credentials';
import { purgeQuotaUsage } from './usage';

/**
 * Uploads attached to no note are removed after a grace period (issue 29 R3-01: they used to
 * stay forever, so a learner could fill the disk without writing a single note). Safe with
 * several API processes on one database: each candidate is removed by a conditional DELETE that
 * re-checks, in the database, that the file is still old, still an upload and still attached to
 * nothing; only the process whose DELETE removed the row removes the bytes, from the store
 * that keeps them (the files folder or the S3 bucket). A note written meanwhile that lists the
 * file makes the DELETE match nothing, and the file stays. Bytes whose removal fails (the bucket
 * out of reach) are not tried again: their row is gone; the other candidates still go.
 */
const BATCH = 200;

type FilesEb = ExpressionBuilder<Database, 'files'>;

/** Still unattached: no note of the tenant lists the id, no user wears it as avatar. */
const unattached = (eb: FilesEb) =>
  eb.and([
    eb.not(
      eb.exists(
        eb
          .selectFrom('logBookRecords as r')
          .select(sql<number>`1`.as('one'))
          .whereRef('r.contextId', '=', 'files.contextId')
          // The ids are JSON strings in the list: the quotes make a match exact.
          .where('r.attachmentIds', 'like', sql<string>`'%"' || files.id || '"%'`),
      ),
    ),
    eb.not(
      eb.exists(
        eb
          .selectFrom('users as u')
          .select(sql<number>`1`.as('one'))
          .whereRef('u.avatarId', '=', 'files.id'),
      ),
    ),
  ]);

/** One pass: removes at most `BATCH` orphans older than `graceMs`; returns how many it removed. */
export async function sweepOrphanUploads(
  db: Db,
  store: FileStore | null,
  now: Date,
  graceMs: number,
): Promise<number> {
  const cutoff = new Date(now.getTime() - graceMs).toISOString();
  const candidates = await db
    .selectFrom('files')
    .select(['contextId', 'id'])
    .where('ownerId', 'is not', null)
    .where('createdAt', '<', cutoff)
    .where(unattached)
    .limit(BATCH)
    .execute();
  let removed = 0;
  for (const c of candidates) {
    // The database decides: another process, or a note written since the read, makes it match nothing.
    const gone = await db
      .deleteFrom('files')
      .where('contextId', '=', c.contextId)
      .where('id', '=', c.id)
      .where('ownerId', 'is not', null)
      .where('createdAt', '<', cutoff)
      .where(unattached)
      .returning('storagePath')
      .executeTakeFirst();
    if (!gone) continue;
    removed++;
    if (store) await removeFileBytes(store, gone.storagePath).catch(() => undefined);
  }
  return removed;
}

/** The background job of every API process: orphans, then quota rows of ended periods. */
export function startQuotaJanitor(
  db: Db,
  kind: DbKind,
  store: FileStore | null,
  graceMs: number,
  everyMs = 15 * 60 * 1000,
): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const now = new Date();
      while ((await sweepOrphanUploads(db, store, now, graceMs)) === BATCH);
      await writeTx(db, kind, (trx) => purgeQuotaUsage(trx, now, LAUNCH_TTL_MS));
    } catch {
      // The next pass tries again; a failed sweep costs disk space, never a request.
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void run(), Math.min(everyMs, 60_000));
  const timer = setInterval(() => void run(), everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
