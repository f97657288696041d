/**
 * What the bridge asks of the server on the packages origin (issue 31, docs/api.md "Packages"):
 * start a launch (the frame's URL, and for SCORM the `cmi` data to resume from), read the
 * launch's progress, finish it (SCORM commits: commit.ts). Every call speaks for one launch (launches.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbKind } from '../../db/db';
import type { FileStore } from '../../files/store';
import { readSummary } from '../../content/packages/store';
import type { PackageSummary } from '../../content/packages/store';
import { ApiError } from '../../plugins/errors';
import { learnerAgent, registrationOf } from '../lrs/credentials';
import { emitStatements, launchedStatement as moduleLaunched } from '../lrs/emit';
import { writeTx } from '../../db/tx';
import { evaluateMoveOn, startCmi5 } from './cmi5';
import type { TenantFacts } from './cmi5';
import { issueLaunchCredentials } from './launch-credentials';
import type { LaunchRow } from './launches';

export interface RuntimeDeps {
  db: Db;
  kind: DbKind;
  store: FileStore;
  now: Date;
  log: FastifyBaseLogger;
}

export const conflict = (detail: string) => new ApiError(409, 'INVALID_INPUTS', detail);

/** What a page's runtime row keeps: the last commit's cmi, and whether it was LMSFinish/Terminate. */
export interface StoredRuntime {
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
  /** cmi5 launchMethod OwnWindow (issue 39): the bridge gives its window to the AU, no frame. */
  ownWindow?: boolean;
}

export async function tenantOf(db: Db, contextId: string): Promise<TenantFacts> {
  return db
    .selectFrom('contexts')
    .select(['id', 'alias', 'hosts', 'settings'])
    .where('id', '=', contextId)
    .executeTakeFirstOrThrow();
}

export async function userOf(db: Db, userId: string) {
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
 * POST /runtime/:key/start for xAPI and cmi5: credentials are made here, once per launch (a second
 * start: 409). SCORM: scorm-course.ts.
 */
export async function startLaunch(
  d: RuntimeDeps,
  launch: LaunchRow,
  packagesOrigin: string,
): Promise<StartAnswer> {
  const summary = await summaryOfLaunch(d, launch);
  const entry = `/p/${launch.contextId}/${launch.packageId}/${summary.entry}`;
  const base = { kind: summary.kind, title: summary.title };
  // SCORM starts in scorm-course.ts (startScorm): one SCO or a course of several.
  const [tenant, user] = await Promise.all([tenantOf(d.db, launch.contextId), userOf(d.db, launch.userId)]);
  const actor = learnerAgent(tenant, user);
  if (summary.kind === 'cmi5' && summary.cmi5) {
    const started = await startCmi5(
      d,
      launch,
      summary.cmi5,
      tenant,
      actor,
      `${packagesOrigin}/p/${launch.contextId}/${launch.packageId}/`,
      summary.entry,
    );
    if (!started) throw conflict('This launch has started already: open the package again.');
    // The AU's URL: on the packages origin (a path), or absolute (decision 0062).
    const url = started.url.startsWith(`${packagesOrigin}/`)
      ? started.url.slice(packagesOrigin.length)
      : started.url;
    const ownWindow = summary.cmi5.aus?.[launch.auIndex]?.launchMethod === 'OwnWindow';
    return { ...base, entry: url, cmi: null, resumed: false, ownWindow };
  }
  // tincan.xml: the launch parameters of a tincan block's module (docs/product.md §7), with
  // credentials of this launch; its statements score the page as a module's do.
  const registration = registrationOf(launch.blockId);
  const issued = await issueLaunchCredentials(d.db, d.kind, launch, registration, launch.expiresAt, d.now);
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
    ['auth', `Basic ${Buffer.from(`${issued.key}:${issued.secret}`).toString('base64')}`],
    ['actor', JSON.stringify(actor)],
    ['registration', registration],
    ['activity_id', summary.xapi?.activityId ?? ''],
  ]
    .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`)
    .join('&');
  return { ...base, entry: joinQuery(entry, query), cmi: null, resumed: false };
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
    if (summary.cmi5) await evaluateMoveOn(d, launch, summary.cmi5);
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
