/**
 * cmi5 on the LMS side (issue 31; cmi5 spec §8–§11): the launch (the AU's URL with endpoint,
 * fetch, actor, registration and activityId; `LMS.LaunchData` and the learner preferences
 * written first; the launched statement; an earlier session left open abandoned), the one-time
 * fetch URL, and what the AU's statements change: a terminated session, and the page scored and
 * `satisfied` recorded once its moveOn criteria are met.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbKind } from '../../db/db';
import { parseJson } from '../../db/schema';
import type { Cmi5Settings } from '../../content/packages/manifest';
import { LAUNCH_TTL_MS, learnerAgent } from '../lrs/credentials';
import { getDocument, writeDocument } from '../lrs/documents';
import { storeEmittedNow } from '../lrs/emit';
import { writeTx } from '../../db/tx';
import type { Credential } from '../lrs/credentials';
import type { StoredStatement } from '../lrs/store';
import { actorKey } from '../lrs/statement-schema';
import type { Agent } from '../lrs/statement-schema';
import { sha256 } from './launches';
import type { LaunchRow } from './launches';
import { fractionOf, moveOnFraction } from './move-on';
import type { AuRecord } from './move-on';
import { scorePage } from './score';
import {
  CMI5_CATEGORY,
  VERBS,
  abandonedStatement,
  launchData,
  launchedStatement,
  satisfiedStatement,
} from './statements';
import type { Cmi5Session } from './statements';

export interface TenantFacts {
  id: string;
  alias: string;
  hosts: string;
  settings: string;
}

/** The AU's activity id for this LMS (§8.1.5): stable for the block, never the publisher's id. */
export const auActivityId = (blockId: string, auId: string) =>
  `urn:parcours:block:${blockId}/au/${encodeURIComponent(auId)}`;
/** The course object of `satisfied` statements (§9.4): generated, never the publisher's id. */
export const courseObjectId = (blockId: string) => `urn:parcours:block:${blockId}/course`;

export function sessionOf(launch: LaunchRow, settings: Cmi5Settings, actor: Agent): Cmi5Session {
  return {
    actor,
    registration: launch.registration,
    sessionId: launch.sessionId,
    activityId: auActivityId(launch.blockId, settings.auId),
    settings,
  };
}

const seconds = (from: string, to: Date) => Math.max(0, (to.getTime() - new Date(from).getTime()) / 1000);

/** The learner's language preference: the tenant's language first (cmi5 §11.1). */
function languagePreference(tenant: TenantFacts): string {
  const locale = parseJson<{ defaultLocale?: string }>(tenant.settings, {}).defaultLocale;
  return locale === 'fr' ? 'fr-FR,fr,en-US,en' : 'en-US,en,fr-FR,fr';
}

export interface Cmi5Start {
  /** The query the AU's URL gets (cmi5 §8.1), to append to the package entry. */
  query: string;
  launchUrl: string;
}

/**
 * Starts the launch's AU session, once (a second start of the same launch is refused by the
 * caller's conditional update on `fetch_hash`): earlier sessions of the page still open are
 * abandoned, the State and Agent Profile documents written, launched recorded — all before the
 * AU gets its URL.
 */
export async function startCmi5(
  db: Db,
  kind: DbKind,
  launch: LaunchRow,
  settings: Cmi5Settings,
  tenant: TenantFacts,
  actor: Agent,
  entryUrl: string,
  now: Date,
): Promise<Cmi5Start | null> {
  const token = randomBytes(32).toString('base64url');
  const started = await writeTx(db, kind, async (trx) => {
    const res = await trx
      .updateTable('packageLaunches')
      .set({ fetchHash: sha256(token) })
      .where('key', '=', launch.key)
      .where('fetchHash', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return null;
    // §9.3.6: a session of the same registration still open is abandoned; its credentials end.
    const open = await trx
      .selectFrom('packageLaunches')
      .select(['key', 'createdAt', 'finishedAt', 'xapiKey', 'sessionId'])
      .where('pageId', '=', launch.pageId)
      .where('key', '!=', launch.key)
      .where('kind', '=', 'cmi5')
      .where('fetchHash', 'is not', null)
      .where('terminatedAt', 'is', null)
      .where('abandonedAt', 'is', null)
      .execute();
    if (open.length) {
      await trx
        .updateTable('packageLaunches')
        .set({ abandonedAt: now.toISOString() })
        .where(
          'key',
          'in',
          open.map((o) => o.key),
        )
        .execute();
      const keys = open.map((o) => o.xapiKey).filter((k): k is string => !!k);
      if (keys.length)
        await trx
          .updateTable('xapiCredentials')
          .set({ expiresAt: now.toISOString() })
          .where('key', 'in', keys)
          .execute();
    }
    return open;
  });
  if (!started) return null;
  const session = sessionOf(launch, settings, actor);
  const context = { id: tenant.id, alias: tenant.alias, hosts: tenant.hosts };
  const abandoned = started.map((o) => ({
    userId: launch.userId,
    statement: abandonedStatement(
      { ...session, sessionId: o.sessionId },
      seconds(o.createdAt, o.finishedAt ? new Date(o.finishedAt) : now),
      now,
    ),
  }));
  const agentKey = actorKey(actor) as string;
  await writeDocument(
    db,
    kind,
    tenant.id,
    { kind: 'state', activityId: session.activityId, agentKey, registration: launch.registration },
    'LMS.LaunchData',
    { contentType: 'application/json', content: Buffer.from(JSON.stringify(launchData(session))) },
    'put',
    { blindOverwriteConflicts: false },
    now,
    // Written for the learner's launch: charged to her (issue 36 item 1).
    launch.userId,
  );
  const prefsKey = { kind: 'agent-profile' as const, activityId: '', agentKey, registration: '' };
  if (!(await getDocument(db, tenant.id, prefsKey, 'cmi5LearnerPreferences')))
    await writeDocument(
      db,
      kind,
      tenant.id,
      prefsKey,
      'cmi5LearnerPreferences',
      {
        contentType: 'application/json',
        content: Buffer.from(
          JSON.stringify({ languagePreference: languagePreference(tenant), audioPreference: 'on' }),
        ),
      },
      'put',
      // Written only when absent: the learner's own changes (through an AU) are kept.
      { blindOverwriteConflicts: false, ifNoneMatch: '*' },
      now,
      launch.userId,
    ).catch(() => undefined);
  await storeEmittedNow(db, kind, context, [
    ...abandoned,
    { userId: launch.userId, statement: launchedStatement(session, entryUrl, now) },
  ]);
  const endpoint = `${launch.appOrigin}/api/xapi/`;
  const fetch = `${launch.appOrigin}/api/packages/fetch/${token}`;
  const query = [
    ['endpoint', endpoint],
    ['fetch', fetch],
    ['actor', JSON.stringify(actor)],
    ['registration', launch.registration],
    ['activityId', session.activityId],
  ]
    .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`)
    .join('&');
  return { query, launchUrl: entryUrl };
}

/** The fetch URL's answer (§8.2): the auth token once, then error 1; error 2 for a token never issued. */
export async function fetchAuthToken(
  db: Db,
  kind: DbKind,
  contextId: string,
  token: string,
  now: Date,
): Promise<Record<string, string>> {
  const launch = await db
    .selectFrom('packageLaunches')
    .selectAll()
    .where('fetchHash', '=', sha256(token))
    .where('contextId', '=', contextId)
    .executeTakeFirst();
  if (!launch) return { 'error-code': '2', 'error-text': 'This fetch URL is unknown.' };
  if (launch.fetchedAt || launch.abandonedAt || launch.expiresAt <= now.toISOString())
    return {
      'error-code': '1',
      'error-text': 'The authorization token has already been returned, or the session expired.',
    };
  const key = randomBytes(16).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const issued = await writeTx(db, kind, async (trx) => {
    // Conditional: two calls at once, one token.
    const res = await trx
      .updateTable('packageLaunches')
      .set({ fetchedAt: now.toISOString(), xapiKey: key })
      .where('key', '=', launch.key)
      .where('fetchedAt', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await trx
      .insertInto('xapiCredentials')
      .values({
        key,
        contextId,
        userId: launch.userId,
        lessonId: launch.lessonId,
        pageId: launch.pageId,
        registration: launch.registration,
        secretHash: sha256(secret),
        // §8.2.1: limited to the session, which a launch bounds.
        expiresAt: new Date(
          Math.min(new Date(launch.expiresAt).getTime(), now.getTime() + LAUNCH_TTL_MS),
        ).toISOString(),
        createdAt: now.toISOString(),
      })
      .execute();
    return true;
  });
  if (!issued)
    return { 'error-code': '1', 'error-text': 'The authorization token has already been returned.' };
  return { 'auth-token': Buffer.from(`${key}:${secret}`).toString('base64') };
}

/** How long an AU session still takes statements after its terminated (cmi5 §9.3.8). */
export const TERMINATED_GRACE_MS = 60_000;

const CMI5_VERBS: string[] = [VERBS.completed.id, VERBS.passed.id, VERBS.failed.id, VERBS.terminated.id];

/** cmi5 defined: the cmi5 category in contextActivities (§7.1.3) and the AU as object. */
function isCmi5Defined(s: StoredStatement['body'], activityId: string): boolean {
  const cats = (s.context as { contextActivities?: { category?: { id?: string }[] } } | undefined)
    ?.contextActivities?.category;
  const obj = s.object as { id?: string };
  return Array.isArray(cats) && cats.some((c) => c?.id === CMI5_CATEGORY) && obj.id === activityId;
}

/** What the AU recorded in the registration: its cmi5 defined verbs and its passed or failed score. */
export async function auRecord(db: Db, launch: LaunchRow, activityId: string): Promise<AuRecord> {
  const rows = await db
    .selectFrom('xapiStatements')
    .select(['verbId', 'body'])
    .where('contextId', '=', launch.contextId)
    .where('userId', '=', launch.userId)
    .where('registration', '=', launch.registration)
    .where('activityId', '=', activityId)
    .where('verbId', 'in', CMI5_VERBS)
    .where('voided', '=', 0)
    .execute();
  const r: AuRecord = { completed: false, passed: false, failed: false, score: null, ended: false };
  let failedScore: number | null = null;
  for (const row of rows) {
    const body = parseJson<StoredStatement['body'] | null>(row.body, null);
    if (!body || !isCmi5Defined(body, activityId)) continue;
    const score = fractionOf(body.result?.score);
    if (row.verbId === VERBS.completed.id) r.completed = true;
    else if (row.verbId === VERBS.passed.id) {
      r.passed = true;
      if (score !== null) r.score = score;
    } else if (row.verbId === VERBS.failed.id) {
      r.failed = true;
      if (score !== null) failedScore = score;
    } else if (row.verbId === VERBS.terminated.id) r.ended = true;
  }
  if (!r.passed && failedScore !== null) r.score = failedScore;
  return r;
}

export interface Cmi5Deps {
  db: Db;
  kind: DbKind;
  now: Date;
  log: FastifyBaseLogger;
}

async function tenantOf(db: Db, contextId: string): Promise<TenantFacts | null> {
  return (
    (await db
      .selectFrom('contexts')
      .select(['id', 'alias', 'hosts', 'settings'])
      .where('id', '=', contextId)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Evaluates moveOn for the launch's registration: once met, the page is scored (the one-grade
 * rule: once) and `satisfied` recorded in the same session. `ended`: the session is known to be
 * over (terminated, or closed by the player) — what NotApplicable waits for.
 */
export async function evaluateMoveOn(
  d: Cmi5Deps,
  launch: LaunchRow,
  settings: Cmi5Settings,
  ended: boolean,
): Promise<boolean> {
  const activityId = auActivityId(launch.blockId, settings.auId);
  const record = await auRecord(d.db, launch, activityId);
  const fraction = moveOnFraction(settings.moveOn, { ...record, ended: record.ended || ended });
  if (fraction === null) return false;
  const scored = await scorePage(d, launch, fraction);
  if (!scored) return false;
  const tenant = await tenantOf(d.db, launch.contextId);
  const user = await d.db
    .selectFrom('users')
    .select(['id', 'tincanIdentifier'])
    .where('id', '=', launch.userId)
    .executeTakeFirst();
  if (tenant && user) {
    const session = sessionOf(launch, settings, learnerAgent(tenant, user));
    await storeEmittedNow(d.db, d.kind, tenant, [
      {
        userId: launch.userId,
        statement: satisfiedStatement(session, courseObjectId(launch.blockId), d.now),
      },
    ]);
  }
  return true;
}

/**
 * After the LRS stored statements sent with a cmi5 launch's credentials: a terminated statement
 * of the session ends it; moveOn is evaluated. Errors are logged: stored statements stay stored.
 */
export async function afterCmi5Statements(
  d: Cmi5Deps,
  launch: LaunchRow,
  settings: Cmi5Settings,
  inserted: StoredStatement[],
): Promise<void> {
  const activityId = auActivityId(launch.blockId, settings.auId);
  const terminated = inserted.some(
    (s) => s.body.verb.id === VERBS.terminated.id && (s.body.object as { id?: string }).id === activityId,
  );
  if (terminated)
    await writeTx(d.db, d.kind, async (trx) => {
      await trx
        .updateTable('packageLaunches')
        .set({ terminatedAt: d.now.toISOString() })
        .where('key', '=', launch.key)
        .where('terminatedAt', 'is', null)
        .execute();
      // §9.3.8: after a while the session takes no more statements; its credentials end then.
      if (launch.xapiKey)
        await trx
          .updateTable('xapiCredentials')
          .set({ expiresAt: new Date(d.now.getTime() + TERMINATED_GRACE_MS).toISOString() })
          .where('key', '=', launch.xapiKey)
          .where('expiresAt', '>', new Date(d.now.getTime() + TERMINATED_GRACE_MS).toISOString())
          .execute();
    });
  const relevant = inserted.some((s) => CMI5_VERBS.includes(s.body.verb.id));
  if (relevant) await evaluateMoveOn(d, launch, settings, terminated);
}

/** The launch a set of LRS credentials belongs to, when they were given by a package launch. */
export async function launchOfCredential(db: Db, cred: Credential): Promise<LaunchRow | null> {
  return (
    (await db
      .selectFrom('packageLaunches')
      .selectAll()
      .where('xapiKey', '=', cred.key)
      .where('contextId', '=', cred.contextId)
      .executeTakeFirst()) ?? null
  );
}
