/**
 * What the bridge asks of the server on the packages origin (issue 31, docs/api.md "Packages"):
 * start a launch (the frame's URL, and for SCORM the `cmi` data to resume from), commit SCORM
 * data, read the launch's progress, finish it. Every call speaks for one launch (launches.ts).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbKind } from '../../db/db';
import { parseJson } from '../../db/schema';
import type { FileStore } from '../../files/store';
import { readSummary } from '../../content/packages/store';
import type { PackageSummary } from '../../content/packages/store';
import { ApiError } from '../../plugins/errors';
import { homePageOf, learnerAgent, registrationOf } from '../lrs/credentials';
import { emitStatements, launchedStatement as moduleLaunched, playerAuthority } from '../lrs/emit';
import { enqueueForwarding } from '../lrs/forward';
import { prepare, storeStatementsIn } from '../lrs/store';
import { budgetOf, spend } from '../quotas/budget';
import type { Budget } from '../quotas/budget';
import { addTime } from '../lesson-pages/repository';
import { writeTx } from '../lesson-pages/tx';
import type { Tx } from '../lesson-pages/tx';
import { stableId } from '../../lib/ids';
import { evaluateMoveOn, startCmi5 } from './cmi5';
import type { TenantFacts } from './cmi5';
import { sha256 } from './launches';
import type { LaunchRow } from './launches';
import { initialCmi, scormFraction, scormState } from './scorm';
import type { ScormKind, ScormState } from './scorm';
import { scormStatements } from './statements';
import { scorePage } from './score';

export interface RuntimeDeps {
  db: Db;
  kind: DbKind;
  store: FileStore;
  now: Date;
  log: FastifyBaseLogger;
}

const conflict = (detail: string) => new ApiError(409, 'INVALID_INPUTS', detail);

/** What a page's runtime row keeps: the last commit's cmi, and whether it was LMSFinish/Terminate. */
interface StoredRuntime {
  cmi: Record<string, unknown>;
  terminated: boolean;
}

export interface StartAnswer {
  kind: PackageSummary['kind'];
  title: string;
  /** The frame's address on this origin: the package's launch file, with its launch parameters. */
  entry: string;
  /** SCORM: the data the API object is loaded with before the SCO's Initialize. */
  cmi: Record<string, unknown> | null;
  /** SCORM: the SCO starts from saved data (`entry` resume). */
  resumed: boolean;
}

async function tenantOf(db: Db, contextId: string): Promise<TenantFacts> {
  return db
    .selectFrom('contexts')
    .select(['id', 'alias', 'hosts', 'settings'])
    .where('id', '=', contextId)
    .executeTakeFirstOrThrow();
}

async function userOf(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'tincanIdentifier', 'firstname', 'lastname', 'username'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

export async function summaryOfLaunch(d: RuntimeDeps, launch: LaunchRow): Promise<PackageSummary> {
  const summary = await readSummary(d.store, launch.contextId, launch.packageId);
  if (!summary)
    throw new ApiError(404, 'MODEL_NOT_FOUND', 'This package is not stored (import the content again).');
  return summary;
}

const joinQuery = (entry: string, query: string) => {
  const [beforeHash, hash] = entry.split('#', 2);
  const base = beforeHash ?? '';
  return `${base}${base.includes('?') ? '&' : '?'}${query}${hash !== undefined ? `#${hash}` : ''}`;
};

/**
 * POST /runtime/:key/start. SCORM: the saved `cmi`, as often as asked (a reload of the bridge
 * resumes). xAPI and cmi5: credentials are made here, once per launch (a second start: 409).
 */
export async function startLaunch(
  d: RuntimeDeps,
  launch: LaunchRow,
  packagesOrigin: string,
): Promise<StartAnswer> {
  const summary = await summaryOfLaunch(d, launch);
  const entry = `/p/${launch.contextId}/${launch.packageId}/${summary.entry}`;
  const base = { kind: summary.kind, title: summary.title };
  if (summary.kind === 'scorm12' || summary.kind === 'scorm2004') {
    const [row, user] = await Promise.all([
      d.db
        .selectFrom('packageRuntime')
        .select(['cmi', 'totalSeconds'])
        .where('pageId', '=', launch.pageId)
        .executeTakeFirst(),
      userOf(d.db, launch.userId),
    ]);
    const stored = parseJson<StoredRuntime | null>(row?.cmi, null);
    const s = summary.scorm;
    const cmi = initialCmi(summary.kind, stored?.cmi ?? null, {
      learnerId: user.id,
      learnerName: [user.lastname, user.firstname].filter(Boolean).join(', ') || (user.username ?? ''),
      totalSeconds: row?.totalSeconds ?? 0,
      masteryScore: s?.masteryScore ?? null,
      scaledPassingScore: s?.scaledPassingScore ?? null,
      completionThreshold: s?.completionThreshold ?? null,
      launchData: s?.launchData ?? null,
      maxTimeAllowed: s?.maxTimeAllowed ?? null,
      timeLimitAction: s?.timeLimitAction ?? null,
    });
    const resumed =
      summary.kind === 'scorm12'
        ? (cmi.core as { entry: string }).entry === 'resume'
        : cmi.entry === 'resume';
    return { ...base, entry, cmi, resumed };
  }
  const [tenant, user] = await Promise.all([tenantOf(d.db, launch.contextId), userOf(d.db, launch.userId)]);
  const actor = learnerAgent(tenant, user);
  if (summary.kind === 'cmi5' && summary.cmi5) {
    const started = await startCmi5(
      d.db,
      d.kind,
      launch,
      summary.cmi5,
      tenant,
      actor,
      `${packagesOrigin}${entry}`,
      d.now,
    );
    if (!started) throw conflict('This launch has started already: open the package again.');
    return { ...base, entry: joinQuery(entry, started.query), cmi: null, resumed: false };
  }
  // tincan.xml: the launch parameters of a tincan block's module (docs/product.md §7), with
  // credentials of this launch; its statements score the page as a module's do.
  const key = randomBytes(16).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const registration = registrationOf(launch.blockId);
  const issued = await writeTx(d.db, d.kind, async (trx) => {
    const res = await trx
      .updateTable('packageLaunches')
      .set({ xapiKey: key })
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
        expiresAt: launch.expiresAt,
        createdAt: d.now.toISOString(),
      })
      .execute();
    return true;
  });
  if (!issued) throw conflict('This launch has started already: open the package again.');
  emitStatements(d.db, d.kind, tenant, [
    moduleLaunched(
      actor,
      registration,
      { userId: launch.userId, lessonId: launch.lessonId, blockId: launch.blockId },
      d.now,
    ),
  ]);
  const query = [
    ['endpoint', `${launch.appOrigin}/api/xapi/`],
    ['auth', `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`],
    ['actor', JSON.stringify(actor)],
    ['registration', registration],
    ['activity_id', summary.xapi?.activityId ?? ''],
  ]
    .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`)
    .join('&');
  return { ...base, entry: joinQuery(entry, query), cmi: null, resumed: false };
}

export interface CommitBody {
  cmi: Record<string, unknown>;
  sequence: number;
  terminate: boolean;
}

/**
 * POST /runtime/:key/commit: a SCORM commit (LMSCommit, Commit, and the last one of
 * LMSFinish/Terminate). Applied once and in order: a commit whose sequence the launch has seen
 * is answered as saved without writing again. The SCO's data replace the page's saved ones; the
 * terminate commit adds the session's time; a final status scores the page (terminate, or a
 * score given); the learning records follow ADL's SCORM profile.
 */
export async function commitScorm(
  d: RuntimeDeps,
  launch: LaunchRow,
  body: CommitBody,
): Promise<{ applied: boolean }> {
  const kind = launch.kind as ScormKind;
  if (kind !== 'scorm12' && kind !== 'scorm2004') throw conflict('This launch is not a SCORM package.');
  const iso = d.now.toISOString();
  const after = scormState(kind, body.cmi);
  // What the statements need, read before the transaction that stores them with the commit.
  const [summary, tenant, user] = await Promise.all([
    summaryOfLaunch(d, launch),
    tenantOf(d.db, launch.contextId),
    userOf(d.db, launch.userId),
  ]);
  const budget = budgetOf(d.db);
  const storedCmi = JSON.stringify({ cmi: body.cmi, terminated: body.terminate } satisfies StoredRuntime);
  // The SCO's own session_time is believed no further than the launch has lasted, as the page's
  // time is (the player counts only what its clock saw, lesson-pages/clock.ts): a SCO reporting
  // 10 000 hours no longer adds them to its total time (issue 36).
  const lasted = Math.max(0, (d.now.getTime() - new Date(launch.createdAt).getTime()) / 1000);
  const session = body.terminate ? Math.floor(Math.min(after.sessionSeconds ?? 0, lasted)) : 0;
  const outcome = await writeTx(d.db, d.kind, async (trx) => {
    const seq = await trx
      .updateTable('packageLaunches')
      .set({ lastSequence: body.sequence, ...(body.terminate ? { terminatedAt: iso } : {}) })
      .where('key', '=', launch.key)
      .where('lastSequence', '<', body.sequence)
      .executeTakeFirst();
    if (Number(seq.numUpdatedRows) !== 1) return null;
    // A commit is charged to its learner like a write of module data (issue 36): per minute and
    // its bytes per day. A refusal (429) rolls the whole commit back, sequence included.
    await spend(
      trx,
      budget,
      {
        contextId: launch.contextId,
        userId: launch.userId,
        road: 'commits',
        rows: 1,
        bytes: Buffer.byteLength(storedCmi),
      },
      d.now,
    );
    const page = await trx
      .selectFrom('lessonPages')
      .select(['id', 'attempt', 'timeSpent'])
      .where('id', '=', launch.pageId)
      .executeTakeFirstOrThrow();
    const previous = await trx
      .selectFrom('packageRuntime')
      .select(['cmi', 'launchKey', 'totalSeconds'])
      .where('pageId', '=', launch.pageId)
      .executeTakeFirst();
    if (previous)
      await trx
        .updateTable('packageRuntime')
        .set({
          cmi: storedCmi,
          launchKey: launch.key,
          totalSeconds: previous.totalSeconds + session,
          updatedAt: iso,
        })
        .where('pageId', '=', launch.pageId)
        .execute();
    else
      await trx
        .insertInto('packageRuntime')
        .values({
          pageId: launch.pageId,
          contextId: launch.contextId,
          userId: launch.userId,
          lessonId: launch.lessonId,
          attempt: page.attempt,
          kind,
          cmi: storedCmi,
          totalSeconds: session,
          launchKey: launch.key,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
    // session_time adds what the player's clock (its keep-alive pings since the launch began)
    // did not count already.
    if (session > 0) {
      const counted = Math.max(0, page.timeSpent - launch.timeBase);
      const extra = Math.floor(Math.max(0, session - counted));
      if (extra > 0) {
        await trx
          .updateTable('lessonPages')
          .set((eb) => ({ timeSpent: eb('timeSpent', '+', extra), timeAlive: eb('timeAlive', '+', extra) }))
          .where('id', '=', launch.pageId)
          .execute();
        await addTime(trx, { id: launch.lessonId, userId: launch.userId }, extra);
      }
    }
    const before = previous
      ? scormState(kind, parseJson<StoredRuntime | null>(previous.cmi, null)?.cmi ?? {})
      : null;
    const first = previous?.launchKey !== launch.key;
    // The statements the commit means (one per changed interaction among them) are stored and
    // charged with it (issue 36: they used to be queued after it, charged to nobody).
    await storeScormStatements(trx, budget, launch, summary, tenant, user, {
      before,
      after,
      first,
      resumed: previous !== undefined && first,
      terminate: body.terminate,
      sequence: body.sequence,
      at: d.now,
    });
    return true;
  });
  if (!outcome) return { applied: false };
  const fraction = scormFraction(kind, after);
  if (fraction !== null && (body.terminate || after.score !== null)) await scorePage(d, launch, fraction);
  return { applied: true };
}

async function storeScormStatements(
  trx: Tx,
  budget: Budget,
  launch: LaunchRow,
  summary: PackageSummary,
  tenant: TenantFacts,
  user: Awaited<ReturnType<typeof userOf>>,
  c: {
    before: ScormState | null;
    after: ScormState;
    first: boolean;
    resumed: boolean;
    terminate: boolean;
    sequence: number;
    at: Date;
  },
) {
  const list = scormStatements({
    actor: learnerAgent(tenant, user),
    blockId: launch.blockId,
    lessonId: launch.lessonId,
    pageId: launch.pageId,
    item: summary.scorm?.item ?? 'sco',
    title: summary.title,
    registration: registrationOf(launch.blockId),
    ...c,
  });
  const stored = c.at.toISOString();
  const context = { id: tenant.id, alias: tenant.alias, hosts: tenant.hosts };
  // Ids from the launch's secret: a commit's statements are stored once, and nobody else can
  // claim their ids first.
  const batch = list.map(({ key, statement }) =>
    prepare(
      { ...statement, id: stableId(launch.secretHash, String(c.sequence), key) },
      launch.userId,
      playerAuthority(homePageOf(context)),
      stored,
    ),
  );
  await storeStatementsIn(trx, budget, launch.contextId, batch, (t, rows) =>
    enqueueForwarding(t, context, rows, stored),
  );
}

export interface LaunchStatus {
  /** The SCO finished (LMSFinish/Terminate saved) or the AU sent terminated. */
  terminated: boolean;
  /** The player closed the launch (finish). */
  finished: boolean;
  /** Commits applied (SCORM) or statements stored (xAPI, cmi5): the bridge tells the player when it grows. */
  progress: number;
  /** The page is answered: its score is recorded. */
  scored: boolean;
}

export async function launchStatus(d: RuntimeDeps, launch: LaunchRow): Promise<LaunchStatus> {
  const page = await d.db
    .selectFrom('lessonPages')
    .select('answeredAt')
    .where('id', '=', launch.pageId)
    .executeTakeFirst();
  return {
    terminated: launch.terminatedAt !== null,
    finished: launch.finishedAt !== null,
    progress: launch.kind.startsWith('scorm') ? launch.lastSequence : launch.statements,
    scored: !!page?.answeredAt,
  };
}

/**
 * POST /runtime/:key/finish: the player closed the package (after the bridge's LMSFinish or
 * Terminate for SCORM). cmi5: a session closed counts as ended for moveOn NotApplicable.
 */
export async function finishLaunch(d: RuntimeDeps, launch: LaunchRow): Promise<LaunchStatus> {
  await writeTx(d.db, d.kind, (trx) =>
    trx
      .updateTable('packageLaunches')
      .set({ finishedAt: d.now.toISOString() })
      .where('key', '=', launch.key)
      .where('finishedAt', 'is', null)
      .execute(),
  );
  if (launch.kind === 'cmi5') {
    const summary = await summaryOfLaunch(d, launch);
    if (summary.cmi5) await evaluateMoveOn(d, launch, summary.cmi5, true);
  }
  const fresh = await d.db
    .selectFrom('packageLaunches')
    .selectAll()
    .where('key', '=', launch.key)
    .executeTakeFirstOrThrow();
  return launchStatus(d, fresh);
}

/** Marks what the LRS stored with a package launch's credentials (the bridge's progress). */
export async function countStatements(db: Db, kind: DbKind, launchKey: string, n: number): Promise<void> {
  if (n <= 0) return;
  await writeTx(db, kind, (trx) =>
    trx
      .updateTable('packageLaunches')
      .set((eb) => ({ statements: eb('statements', '+', n) }))
      .where('key', '=', launchKey)
      .execute(),
  );
}
