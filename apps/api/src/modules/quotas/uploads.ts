import type { Insertable } from 'kysely';
import type { Db, DbKind } from '../../db/db';
import type { FilesTable } from '../../db/schema';
import { writeTx } from '../lesson-pages/tx';
import { QUOTA_KEYS, uploadCharges } from './charges';
import type { Quotas } from './config';
import { charge, quotaRefusal } from './usage';

/**
 * Records an upload's row within the uploader's quotas (R3-01), in one transaction: the day's
 * bytes of the learner and of the tenant (429), then what the learner keeps stored (413). A
 * refusal writes nothing; the caller removes the bytes it wrote.
 */
export async function recordUpload(
  db: Db,
  kind: DbKind,
  quotas: Quotas,
  row: Insertable<FilesTable> & { ownerId: string; size: number },
  now: Date,
): Promise<void> {
  await writeTx(db, kind, async (trx) => {
    await charge(trx, row.contextId, uploadCharges(quotas, row.ownerId, row.size), now);
    const stored = await trx
      .selectFrom('files')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes'))
      .where('contextId', '=', row.contextId)
      .where('ownerId', '=', row.ownerId)
      .executeTakeFirstOrThrow();
    if (Number(stored.bytes) + row.size > quotas.uploadStoredBytes)
      throw quotaRefusal({ period: 'total', detail: QUOTA_KEYS.uploadStoredBytes }, now);
    await trx.insertInto('files').values(row).execute();
  });
}
