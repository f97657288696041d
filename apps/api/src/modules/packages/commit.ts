/**
 * POST /runtime/:key/commit (issue 31; issue 36): a SCORM commit, its runtime data and the
 * statements it means, stored and charged to the learner together (decision 0055).
 */
import type { PackageSummary } from '../../content/packages/store';
import { parseJson } from '../../db/schema';
import { ApiError } from '../../plugins/errors';
import { stableId } from '../../lib/ids';
import { addTime } from '../lesson-pages/repository';
import { writeTx } from '../../db/tx';
import type { Tx } from '../../db/tx';
import { homePageOf, learnerAgent, registrationOf } from '../lrs/credentials';
import { playerAuthority } from '../lrs/emit';
import { enqueueForwarding } from '../lrs/forward';
import { prepare, storeStatementsIn } from '../lrs/store';
import { budgetOf, spend } from '../quotas/budget';
import type { Budget } from '../quotas/budget';
import type { TenantFacts } from './cmi5';
import type { LaunchRow } from './launches';
import { conflict, summaryOfLaunch, tenantOf, userOf } from './runtime';
import type { RuntimeDeps } from './runtime';
import { courseFraction, treeOf } from './scorm-course';
import type { CourseResult, StoredScorm } from './scorm-course';
import { scosOf } from '../../content/packages/scorm-tree';
import { scormFraction, scormState, settleOnFinish } from './scorm';
import type { ScormKind, ScormState } from './scorm';
import { scorePage } from './score';
import { scormStatements } from './statements';

export interface CommitBody {
  cmi: Record<string, unknown>;
  sequence: number;
  terminate: boolean;
  /** A course (several SCOs): the SCO whose data these are (issue 39). */
  sco?: string;
  /** A SCORM 2004 course: scorm-again's serialized sequencing state after this commit. */
  state?: string;
  /** A SCORM 2004 course: the organization's rollup after this commit (the engine's). */
  course?: CourseResult;
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
): Promise<{ applied: boolean; completion?: string; success?: string }> {
  const kind = launch.kind as ScormKind;
  if (kind !== 'scorm12' && kind !== 'scorm2004') throw conflict('This launch is not a SCORM package.');
  const iso = d.now.toISOString();
  // What the statements need, read before the transaction that stores them with the commit.
  const [summary, tenant, user] = await Promise.all([
    summaryOfLaunch(d, launch),
    tenantOf(d.db, launch.contextId),
    userOf(d.db, launch.userId),
  ]);
  const tree = treeOf(summary);
  const sco = tree ? scosOf(tree).find((s) => s.id === body.sco) : undefined;
  if (tree && body.sco !== undefined && !sco)
    throw new ApiError(400, 'VALIDATION_ERROR', 'sco must name a SCO of the package.', { pointer: '/sco' });
  // A course's commit naming no SCO carries the sequencing engine's state after a move, only.
  const stateOnly = tree !== null && !sco;
  // SCORM 1.2 RTE 3.4.4: a SCO that finishes without a status is completed (then judged by the
  // mastery score); every SCO of a course by its own item's settings.
  const settings = sco?.settings ?? summary.scorm;
  const cmi = body.terminate ? settleOnFinish(kind, body.cmi, settings?.masteryScore ?? null) : body.cmi;
  const after = scormState(kind, cmi);
  const budget = budgetOf(d.db);
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
    const prior = parseJson<StoredScorm | null>(previous?.cmi, null);
    const priorSco = sco ? prior?.scos?.[sco.id] : undefined;
    // One SCO: its data (issue 31). A course: each SCO's data under its item, the SCO the
    // learner is in, the engine's state and the course's rollup (issue 39).
    const next: StoredScorm = stateOnly
      ? {
          cmi: {},
          terminated: false,
          ...prior,
          ...((body.state ?? prior?.state) !== undefined ? { state: body.state ?? prior?.state } : {}),
          ...((body.course ?? prior?.course) ? { course: body.course ?? prior?.course } : {}),
        }
      : sco
        ? {
            cmi: {},
            terminated: body.terminate,
            sco: sco.id,
            scos: {
              ...prior?.scos,
              [sco.id]: {
                cmi,
                terminated: body.terminate,
                launchKey: launch.key,
                seconds: (priorSco?.seconds ?? 0) + session,
              },
            },
            ...((body.state ?? prior?.state) !== undefined ? { state: body.state ?? prior?.state } : {}),
            ...((body.course ?? prior?.course) ? { course: body.course ?? prior?.course } : {}),
          }
        : { cmi, terminated: body.terminate };
    const storedCmi = JSON.stringify(next);
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
    const before = sco
      ? priorSco
        ? scormState(kind, priorSco.cmi)
        : null
      : previous
        ? scormState(kind, prior?.cmi ?? {})
        : null;
    const first = sco ? priorSco?.launchKey !== launch.key : previous?.launchKey !== launch.key;
    // The statements the commit means (one per changed interaction among them) are stored and
    // charged with it (issue 36: they used to be queued after it, charged to nobody).
    if (!stateOnly)
      await storeScormStatements(trx, budget, launch, summary, tenant, user, {
        before,
        after,
        first,
        resumed: (sco ? priorSco !== undefined : previous !== undefined) && first,
        item: sco?.id,
        title: sco?.title,
        terminate: body.terminate,
        sequence: body.sequence,
        at: d.now,
      });
    return next;
  });
  if (!outcome) return { applied: false };
  if (tree) {
    // A course scores the page once it is done as a whole.
    const fraction = courseFraction(kind, summary, outcome.scos ?? {}, outcome.course);
    if (fraction !== null) await scorePage(d, launch, fraction);
    // The SCO's status as stored (settled on finish): the bridge's contents show this one.
    return sco ? { applied: true, completion: after.completion, success: after.success } : { applied: true };
  }
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
    /** A course's SCO: its item and title. */
    item?: string;
    title?: string;
  },
) {
  const { item, title, ...facts } = c;
  const list = scormStatements({
    actor: learnerAgent(tenant, user),
    blockId: launch.blockId,
    lessonId: launch.lessonId,
    pageId: launch.pageId,
    item: item ?? summary.scorm?.item ?? 'sco',
    title: title ?? summary.title,
    registration: registrationOf(launch.blockId),
    ...facts,
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
