import type { Insertable } from 'kysely';
import type { Db, DbKind } from '../../db/db';
import type { FilesTable } from '../../db/schema';
import { writeTx } from '../../db/tx';
import { QUOTA_KEYS, budgetOf, spend } from './budget';
import type { Quotas } from './config';
import { quotaRefusal } from './usage';

/**
 * Records an upload's row within the uploader's budget (R3-01, issue 36), in one transaction: the
 * day's bytes and the day's count of uploads (429), then what the learner keeps stored (413). A
 * refusal writes nothing; the caller removes the bytes it wrote. `quotas` overrides the stored
 * ceiling (tests); the rates are the app's budget.
 */
export async function recordUpload(
  db: Db,
  kind: DbKind,
  quotas: Quotas,
  row: Insertable<FilesTable> & { ownerId: string; size: number },
  now: Date,
): Promise<void> {
  await writeTx(db, kind, async (trx) => {
    await spend(
      trx,
      budgetOf(db),
      { contextId: row.contextId, userId: row.ownerId, road: 'uploads', rows: 1, bytes: row.size },
      now,
    );
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
