/**
 * cmi5 on the LMS side (issue 31, issue 39 item 1; cmi5 spec §8–§11): the launch of one AU of the
 * course (the AU's URL with endpoint, fetch, actor, registration and activityId; `LMS.LaunchData`
 * and the learner preferences written first; at a new registration the NotApplicable AUs'
 * blocks and course satisfied; the launched statement; an earlier session left open abandoned),
 * the one-time fetch URL, what the AU's statements change (the session's state, a terminated
 * session, satisfaction: cmi5-satisfaction.ts), and an operator's abandon and waive.
 */
import { randomBytes } from 'node:crypto';
import type { Db, DbKind } from '../../db/db';
import { parseJson } from '../../db/schema';
import { auSettings } from '../../content/packages/manifest';
import type { Cmi5Settings } from '../../content/packages/manifest';
import { LAUNCH_TTL_MS, learnerAgent } from '../lrs/credentials';
import { getDocument, writeDocument } from '../lrs/documents';
import { storeEmittedNow } from '../lrs/emit';
import { writeTx } from '../../db/tx';
import type { Credential } from '../lrs/credentials';
import type { StoredStatement } from '../lrs/store';
import { actorKey } from '../lrs/statement-schema';
import type { Agent, Statement } from '../lrs/statement-schema';
import { ApiError } from '../../plugins/errors';
import { sha256 } from './launches';
import type { LaunchRow } from './launches';
import { issueLaunchCredentials } from './launch-credentials';
import { NEW_SESSION, cmi5Refusal } from './cmi5-rules';
import type { SessionState } from './cmi5-rules';
import { auActivityId, auRecord } from './cmi5-record';
import { evaluateRegistration } from './cmi5-satisfaction';
import type { Cmi5Deps, TenantFacts } from './cmi5-satisfaction';
import { VERBS, abandonedStatement, launchData, launchedStatement, waivedStatement } from './statements';
import type { Cmi5Session } from './statements';

export type { Cmi5Deps, TenantFacts } from './cmi5-satisfaction';
export { auActivityId } from './cmi5-record';
export { courseObjectId } from './cmi5-satisfaction';

/** The launch's AU settings, or null when the course has no AU at its index. */
export const auOfLaunch = (launch: LaunchRow, course: Cmi5Settings) => auSettings(course, launch.auIndex);

export function sessionOf(launch: LaunchRow, settings: Cmi5Settings, actor: Agent): Cmi5Session {
  return {
    actor,
    registration: launch.registration,
    sessionId: launch.sessionId,
    activityId: auActivityId(launch.blockId, settings.auId),
    settings,
    launchMode: launch.launchMode,
  };
}

const seconds = (from: string, to: Date) => Math.max(0, (to.getTime() - new Date(from).getTime()) / 1000);

/** The learner's language preference: the tenant's language first (cmi5 §11.1). */
function languagePreference(tenant: TenantFacts): string {
  const locale = parseJson<{ defaultLocale?: string }>(tenant.settings, {}).defaultLocale;
  return locale === 'fr' ? 'fr-FR,fr,en-US,en' : 'en-US,en,fr-FR,fr';
}

export interface Cmi5Start {
  /** The AU's URL with the launch query (cmi5 §8.1): on the packages origin, or absolute. */
  url: string;
}

const withQuery = (entry: string, query: string) => {
  const [beforeHash, hash] = entry.split('#', 2);
  const base = beforeHash ?? '';
  return `${base}${base.includes('?') ? '&' : '?'}${query}${hash !== undefined ? `#${hash}` : ''}`;
};
const isAbsolute = (u: string) => /^https?:\/\//i.test(u);

async function endSessions(db: Db, kind: DbKind, keys: string[], xapiKeys: string[], now: Date) {
  if (keys.length)
    await writeTx(db, kind, async (trx) => {
      await trx
        .updateTable('packageLaunches')
        .set({ abandonedAt: now.toISOString() })
        .where('key', 'in', keys)
        .execute();
      if (xapiKeys.length)
        await trx
          .updateTable('xapiCredentials')
          .set({ expiresAt: now.toISOString() })
          .where('key', 'in', xapiKeys)
          .execute();
    });
}

/**
 * Starts the launch's AU session, once (a second start of the same launch: null): earlier
 * sessions of the registration still open are abandoned, the State and Agent Profile documents
 * written, satisfaction evaluated at a new registration, launched recorded — all before the AU
 * gets its URL. `packageBase`: the package folder's URL on the packages origin.
 */
export async function startCmi5(
  d: Cmi5Deps,
  launch: LaunchRow,
  course: Cmi5Settings,
  tenant: TenantFacts,
  actor: Agent,
  packageBase: string,
  defaultEntry: string,
): Promise<Cmi5Start | null> {
  const settings = auOfLaunch(launch, course);
  if (!settings) return null;
  const { db, kind, now } = d;
  const token = randomBytes(32).toString('base64url');
  const res = await writeTx(db, kind, (trx) =>
    trx
      .updateTable('packageLaunches')
      .set({ fetchHash: sha256(token) })
      .where('key', '=', launch.key)
      .where('fetchHash', 'is', null)
      .executeTakeFirst(),
  );
  if (Number(res.numUpdatedRows) !== 1) return null;
  // §9.3.6: a session of the same registration still open is abandoned; its credentials end.
  const open = await db
    .selectFrom('packageLaunches')
    .select(['key', 'createdAt', 'finishedAt', 'xapiKey', 'sessionId', 'auIndex'])
    .where('pageId', '=', launch.pageId)
    .where('key', '!=', launch.key)
    .where('kind', '=', 'cmi5')
    .where('fetchHash', 'is not', null)
    .where('terminatedAt', 'is', null)
    .where('abandonedAt', 'is', null)
    .execute();
  await endSessions(
    db,
    kind,
    open.map((o) => o.key),
    open.map((o) => o.xapiKey).filter((k): k is string => !!k),
    now,
  );
  const session = sessionOf(launch, settings, actor);
  const context = { id: tenant.id, alias: tenant.alias, hosts: tenant.hosts };
  const abandoned = open.map((o) => {
    const s = auSettings(course, o.auIndex) ?? settings;
    return {
      userId: launch.userId,
      statement: abandonedStatement(
        { ...session, sessionId: o.sessionId, activityId: auActivityId(launch.blockId, s.auId), settings: s },
        seconds(o.createdAt, o.finishedAt ? new Date(o.finishedAt) : now),
        now,
      ),
    };
  });
  if (abandoned.length) await storeEmittedNow(db, kind, context, abandoned);
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
  // §9.6.1: at a new registration the NotApplicable AUs count as satisfied, before any launch.
  const earlier = await db
    .selectFrom('packageLaunches')
    .select('key')
    .where('pageId', '=', launch.pageId)
    .where('key', '!=', launch.key)
    .where('fetchHash', 'is not', null)
    .executeTakeFirst();
  if (!earlier) await evaluateRegistration(d, launch, course, tenant, actor, launch.sessionId);
  const entry = settings.url ?? defaultEntry;
  const launchUrl = isAbsolute(entry) ? entry : `${packageBase}${entry}`;
  await storeEmittedNow(db, kind, context, [
    { userId: launch.userId, statement: launchedStatement(session, launchUrl, now) },
  ]);
  const query = [
    ['endpoint', `${launch.appOrigin}/api/xapi`],
    ['fetch', `${launch.appOrigin}/api/packages/fetch/${token}`],
    ['actor', JSON.stringify(actor)],
    ['registration', launch.registration],
    ['activityId', session.activityId],
  ]
    .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`)
    .join('&');
  return { url: withQuery(launchUrl, query) };
}

/** The fetch URL's answer (§8.2): the auth token once, then error 1; error 2 for a token never issued. */
export async function fetchAuthToken(
  db: Db,
  kind: DbKind,
  contextId: string,
  token: string,
  now: Date,
): Promise<{ 'auth-token': string } | { 'error-code': '1' | '2'; 'error-text': string }> {
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
  // §8.2.1: limited to the session, which a launch bounds.
  const expiresAt = new Date(
    Math.min(new Date(launch.expiresAt).getTime(), now.getTime() + LAUNCH_TTL_MS),
  ).toISOString();
  const issued = await issueLaunchCredentials(db, kind, launch, launch.registration, expiresAt, now, {
    fetchedAt: now.toISOString(),
  });
  if (!issued)
    return { 'error-code': '1', 'error-text': 'The authorization token has already been returned.' };
  return { 'auth-token': Buffer.from(`${issued.key}:${issued.secret}`).toString('base64') };
}

export const sessionStateOf = (launch: LaunchRow): SessionState => ({
  ...NEW_SESSION,
  ...parseJson<Partial<SessionState>>(launch.sessionState, {}),
});

/**
 * Before the LRS stores statements sent with a cmi5 launch's credentials: each checked in order
 * against the session (cmi5-rules.ts); the first refused refuses the request with 403. Returns
 * the session's state after them, to keep once they are stored.
 */
export async function checkCmi5Statements(
  db: Db,
  launch: LaunchRow,
  course: Cmi5Settings,
  statements: Statement[],
): Promise<SessionState> {
  const settings = auOfLaunch(launch, course);
  if (!settings) throw new ApiError(403, 'Forbidden', 'This launch plays no AU of the course.');
  const activityId = auActivityId(launch.blockId, settings.auId);
  const record = await auRecord(db, launch, activityId);
  let state = sessionStateOf(launch);
  for (const s of statements) {
    const verdict = cmi5Refusal(
      s,
      s.id !== undefined,
      {
        activityId,
        registration: launch.registration,
        sessionId: launch.sessionId,
        launchMode: launch.launchMode,
        masteryScore: settings.masteryScore,
        registrationCompleted: record.completed,
        registrationPassed: record.passed,
      },
      state,
    );
    if ('refusal' in verdict) throw new ApiError(403, 'Forbidden', verdict.refusal);
    state = verdict.next;
  }
  return state;
}

/** The AU read the learner preferences (cmi5 §11): it may send initialized now. */
export async function markPreferencesRead(db: Db, kind: DbKind, launch: LaunchRow): Promise<void> {
  const state = sessionStateOf(launch);
  if (state.prefsRead) return;
  await writeTx(db, kind, (trx) =>
    trx
      .updateTable('packageLaunches')
      .set({ sessionState: JSON.stringify({ ...state, prefsRead: true }) })
      .where('key', '=', launch.key)
      .execute(),
  );
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

async function actorOf(db: Db, tenant: TenantFacts, userId: string): Promise<Agent | null> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'tincanIdentifier'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return user ? learnerAgent(tenant, user) : null;
}

/** Evaluates the launch's registration in its session; true once the course is satisfied. */
export async function evaluateMoveOn(d: Cmi5Deps, launch: LaunchRow, course: Cmi5Settings): Promise<boolean> {
  const tenant = await tenantOf(d.db, launch.contextId);
  const actor = tenant ? await actorOf(d.db, tenant, launch.userId) : null;
  if (!tenant || !actor) return false;
  return evaluateRegistration(d, launch, course, tenant, actor, launch.sessionId);
}

/**
 * After the LRS stored statements sent with a cmi5 launch's credentials: the session's state
 * kept; a terminated statement ends the session and its credentials at once (cmi5 §9.3.8: the
 * AU sends nothing after it); satisfaction evaluated. Errors are logged: stored statements stay.
 */
export async function afterCmi5Statements(
  d: Cmi5Deps,
  launch: LaunchRow,
  course: Cmi5Settings,
  inserted: StoredStatement[],
  state: SessionState,
): Promise<void> {
  await writeTx(d.db, d.kind, async (trx) => {
    await trx
      .updateTable('packageLaunches')
      .set({
        sessionState: JSON.stringify(state),
        ...(state.terminated ? { terminatedAt: d.now.toISOString() } : {}),
      })
      .where('key', '=', launch.key)
      .execute();
    if (state.terminated && launch.xapiKey)
      await trx
        .updateTable('xapiCredentials')
        .set({ expiresAt: d.now.toISOString() })
        .where('key', '=', launch.xapiKey)
        .execute();
  });
  const relevant = inserted.some((s) =>
    [VERBS.completed.id, VERBS.passed.id, VERBS.failed.id, VERBS.terminated.id].includes(
      s.body.verb.id as never,
    ),
  );
  if (relevant) await evaluateMoveOn(d, launch, course);
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

/** What an operator's action came to: done, nothing of the tenant to act on, or not theirs to do. */
export type OperatorOutcome = 'done' | 'missing' | 'forbidden';

/** Whether the user acting may act on this launch (a tenant administrator, the class's teacher). */
export type MayOperate = (launch: LaunchRow) => Promise<boolean>;

/**
 * What an operator's action on a launch needs: its course's cmi5 settings, the tenant and the
 * learner's actor; null when any is gone (a package re-imported without it, an erased learner).
 */
async function operatorTarget(
  d: Cmi5Deps,
  contextId: string,
  launch: LaunchRow,
  course: (launch: LaunchRow) => Promise<Cmi5Settings | null>,
) {
  const settings = await course(launch);
  const tenant = await tenantOf(d.db, contextId);
  const actor = tenant ? await actorOf(d.db, tenant, launch.userId) : null;
  return settings && tenant && actor ? { course: settings, tenant, actor } : null;
}

/**
 * An operator or a teacher abandons a session (cmi5 §9.3.6): the session ends, its credentials
 * too, and `abandoned` is recorded with the session's duration. `missing` when no open session of
 * the tenant has this id, `forbidden` when `may` refuses the user its launch.
 */
export async function abandonSession(
  d: Cmi5Deps,
  contextId: string,
  sessionId: string,
  course: (launch: LaunchRow) => Promise<Cmi5Settings | null>,
  may: MayOperate,
): Promise<OperatorOutcome> {
  const launch = await d.db
    .selectFrom('packageLaunches')
    .selectAll()
    .where('contextId', '=', contextId)
    .where('sessionId', '=', sessionId)
    .where('kind', '=', 'cmi5')
    .where('terminatedAt', 'is', null)
    .where('abandonedAt', 'is', null)
    .executeTakeFirst();
  if (!launch) return 'missing';
  if (!(await may(launch))) return 'forbidden';
  const target = await operatorTarget(d, contextId, launch, course);
  const settings = target ? auOfLaunch(launch, target.course) : null;
  if (!target || !settings) return 'missing';
  const { tenant, actor } = target;
  await endSessions(d.db, d.kind, [launch.key], launch.xapiKey ? [launch.xapiKey] : [], d.now);
  await storeEmittedNow(d.db, d.kind, tenant, [
    {
      userId: launch.userId,
      statement: abandonedStatement(
        sessionOf(launch, settings, actor),
        seconds(launch.createdAt, d.now),
        d.now,
      ),
    },
  ]);
  return 'done';
}

/**
 * An operator or a teacher waives an AU of a registration (cmi5 §9.3.7): `waived` with the reason
 * in the registration's last session, then the blocks and the course it satisfies. `missing`
 * when the registration has no launch, or the AU is unknown or waived already; `forbidden` when
 * `may` refuses the user its launch.
 */
export async function waiveAu(
  d: Cmi5Deps,
  contextId: string,
  registration: string,
  auIndex: number,
  reason: string,
  course: (launch: LaunchRow) => Promise<Cmi5Settings | null>,
  may: MayOperate,
): Promise<OperatorOutcome> {
  const launch = await d.db
    .selectFrom('packageLaunches')
    .selectAll()
    .where('contextId', '=', contextId)
    .where('registration', '=', registration)
    .where('kind', '=', 'cmi5')
    .orderBy('createdAt', 'desc')
    .executeTakeFirst();
  if (!launch) return 'missing';
  if (!(await may(launch))) return 'forbidden';
  const target = await operatorTarget(d, contextId, launch, course);
  const settings = target ? auSettings(target.course, auIndex) : null;
  if (!target || !settings) return 'missing';
  const { course: c, tenant, actor } = target;
  const activityId = auActivityId(launch.blockId, settings.auId);
  const record = await auRecord(d.db, launch, activityId);
  if (record.waived) return 'missing';
  const session = { ...sessionOf(launch, settings, actor), activityId };
  await storeEmittedNow(d.db, d.kind, tenant, [
    { userId: launch.userId, statement: waivedStatement(session, reason, d.now) },
  ]);
  await evaluateRegistration(d, { ...launch, auIndex }, c, tenant, actor, launch.sessionId);
  return 'done';
}
