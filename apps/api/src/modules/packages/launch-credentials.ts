/**
 * LRS credentials of a package launch (issue 40 item 2: written once for cmi5's fetch URL and
 * for an xAPI package's launch): tied to the launch by `xapiKey`, set only when the launch has
 * none yet (two calls at once: one credential), bounded by the launch's own expiry.
 */
import { randomBytes } from 'node:crypto';
import type { Db, DbKind } from '../../db/db';
import { writeTx } from '../../db/tx';
import { sha256 } from './launches';
import type { LaunchRow } from './launches';

export interface IssuedCredentials {
  key: string;
  secret: string;
}

/**
 * Issues the launch's credentials once, for `registration`, valid until `expiresAt`; null when
 * the launch has credentials already. `mark` adds what else the same conditional update sets.
 */
export async function issueLaunchCredentials(
  db: Db,
  kind: DbKind,
  launch: LaunchRow,
  registration: string,
  expiresAt: string,
  now: Date,
  mark: { fetchedAt?: string } = {},
): Promise<IssuedCredentials | null> {
  const key = randomBytes(16).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const issued = await writeTx(db, kind, async (trx) => {
    const res = await trx
      .updateTable('packageLaunches')
      .set({ xapiKey: key, ...mark })
      .where('key', '=', launch.key)
      .where('xapiKey', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await trx
      .insertInto('xapiCredentials')
      .values({
        key,
        contextId: launch.contextId,
        userId: launch.userId,
        lessonId: launch.lessonId,
        pageId: launch.pageId,
        registration,
        secretHash: sha256(secret),
        expiresAt,
        createdAt: now.toISOString(),
      })
      .execute();
    return true;
  });
  return issued ? { key, secret } : null;
}
