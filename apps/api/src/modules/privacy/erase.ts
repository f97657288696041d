import type { Db, DbKind } from '../../db/db';
import type { FileStore } from '../../files/store';
import { removeFileBytes } from '../files/service';
import { writeTx } from '../lesson-pages/tx';

/**
 * A tenant administrator erases a learner (issue 29 item 9; GDPR article 17). Personal data is
 * removed or made anonymous; what counts for others — the class's and the tenant's statistics,
 * a program's progression figures — is kept under the anonymous account:
 * - removed: notes written by or about the learner, their uploads (rows and bytes), their
 *   learning records and launch credentials, certificates (their snapshot names the learner),
 *   password reset links, sign-in counters keyed by their e-mail, quota counters;
 * - made anonymous: the account (names, e-mail, username, birthday, avatar, password, SSO link,
 *   xAPI name, terms acceptance; every session revoked), review comments;
 * - kept: lessons, pages and their scores, reviews' ratios, daily score records, class and
 *   company memberships — figures tied to an account that no longer says who it was.
 * One transaction: all of it or nothing; the files' bytes go after the commit, from the store
 * that keeps them (the files folder or the S3 bucket).
 */
export async function eraseLearner(
  db: Db,
  kind: DbKind,
  store: FileStore | null,
  contextId: string,
  userId: string,
  now: Date,
): Promise<void> {
  const iso = now.toISOString();
  const paths = await writeTx(db, kind, async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select('email')
      .where('id', '=', userId)
      .where('contextId', '=', contextId)
      .executeTakeFirstOrThrow();
    const files = await trx
      .deleteFrom('files')
      .where('contextId', '=', contextId)
      .where('ownerId', '=', userId)
      .returning('storagePath')
      .execute();
    await trx
      .deleteFrom('logBookRecords')
      .where('contextId', '=', contextId)
      .where((eb) => eb.or([eb('studentId', '=', userId), eb('userId', '=', userId)]))
      .execute();
    await trx
      .deleteFrom('xapiOutbox')
      .where('contextId', '=', contextId)
      .where('statementId', 'in', (eb) =>
        eb
          .selectFrom('xapiStatements')
          .select('id')
          .where('contextId', '=', contextId)
          .where('userId', '=', userId),
      )
      .execute();
    // The learner's own rows, keyed by tenant and learner: statements (after their attachments,
    // above), launch credentials, a package page's saved progress and launches (issue 31), and
    // certificates.
    for (const table of [
      'xapiStatements',
      'xapiCredentials',
      'packageRuntime',
      'packageLaunches',
      'certificates',
    ] as const)
      await trx.deleteFrom(table).where('contextId', '=', contextId).where('userId', '=', userId).execute();
    await trx.deleteFrom('passwordResets').where('userId', '=', userId).execute();
    if (user.email)
      await trx
        .deleteFrom('loginAttempts')
        .where('key', 'like', `%:${contextId}:${user.email.toLowerCase()}`)
        .execute();
    await trx
      .deleteFrom('quotaUsage')
      .where('contextId', '=', contextId)
      .where('subject', '=', userId)
      .execute();
    await trx
      .updateTable('reviews')
      .set({ comment: null })
      .where('contextId', '=', contextId)
      .where('userId', '=', userId)
      .execute();
    await trx
      .updateTable('users')
      .set({
        email: `erased-${userId}@invalid`,
        username: null,
        firstname: null,
        lastname: null,
        birthday: null,
        avatarId: null,
        passwordHash: null,
        tincanIdentifier: null,
        preferredLocale: null,
        oidcSubject: null,
        legal: '{}',
        supportGroups: '[]',
        tokensValidAfter: iso,
        updatedAt: iso,
      })
      .where('id', '=', userId)
      .where('contextId', '=', contextId)
      .execute();
    return files.map((f) => f.storagePath);
  });
  if (store) for (const p of paths) await removeFileBytes(store, p);
}
