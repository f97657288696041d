import { createHash } from 'node:crypto';
import type { Db } from '../../db/db';
import { homePageOf } from '../lrs/credentials';
import { actorKey } from '../lrs/statement-schema';

/**
 * Everything a learner is named by in the tenant's stores (decision 0056), read once before an
 * export or an erasure: her id, e-mail and username, the keys an xAPI agent naming her is
 * stored under, the sign-in counters' keys, and the quota subjects of her launches.
 */
export interface Learner {
  contextId: string;
  userId: string;
  email: string;
  username: string | null;
  /**
   * `actorKey` of every agent that is her: the tenant's account (its app origin and, should
   * `hosts.app` have been set since, the URN form), her mailbox and its SHA-1 — what the
   * player, launch credentials and any LRS client may name her by.
   */
  agentKeys: string[];
  /** login_attempts keys (modules/users): sign-in by e-mail or username, recovery, password change. */
  loginKeys: string[];
  /** quota_usage subjects: hers, and `launch:{key}` of her launch credentials (modules/quotas). */
  quotaSubjects: string[];
}

export async function learnerOf(db: Db, contextId: string, userId: string): Promise<Learner> {
  const [user, context, credentials, launches] = await Promise.all([
    db
      .selectFrom('users')
      .select(['email', 'username'])
      .where('id', '=', userId)
      .where('contextId', '=', contextId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('contexts')
      .select(['alias', 'hosts'])
      .where('id', '=', contextId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('xapiCredentials')
      .select('key')
      .where('contextId', '=', contextId)
      .where('userId', '=', userId)
      .execute(),
    db
      .selectFrom('packageLaunches')
      .select(['key', 'xapiKey'])
      .where('contextId', '=', contextId)
      .where('userId', '=', userId)
      .execute(),
  ]);
  const mbox = `mailto:${user.email.toLowerCase()}`;
  const homePages = new Set([homePageOf(context), `urn:parcours:tenant:${context.alias}`]);
  const agentKeys = [
    ...[...homePages].map((homePage) => actorKey({ account: { homePage, name: userId } })),
    actorKey({ mbox }),
    actorKey({ mbox_sha1sum: createHash('sha1').update(mbox).digest('hex') }),
  ].filter((k): k is string => k !== null);
  // Sign-in lowercases what was typed; a password change keys by the id as stored.
  const names = [user.email, user.username, userId]
    .filter((n): n is string => !!n)
    .flatMap((n) => [n, n.toLowerCase()]);
  const loginKeys = ['login', 'login-slow', 'recover', 'password'].flatMap((kind) =>
    names.map((n) => `${kind}:${contextId}:${n}`),
  );
  const launchKeys = [
    ...credentials.map((c) => c.key),
    ...launches.flatMap((l) => [l.key, l.xapiKey ?? []].flat()),
  ];
  return {
    contextId,
    userId,
    email: user.email,
    username: user.username,
    agentKeys: [...new Set(agentKeys)],
    loginKeys: [...new Set(loginKeys)],
    quotaSubjects: [userId, ...launchKeys.map((k) => `launch:${k}`)],
  };
}
