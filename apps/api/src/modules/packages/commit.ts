/**
 * POST /runtime/:key/commit (issue 31; issue 36): a SCORM commit, its runtime data and the
 * statements it means, stored and charged to the learner together (decision 0055).
 */
import type { PackageSummary } from '../../content/packages/store';
import { parseJson } from '../../db/schema';
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
import type { RuntimeDeps, StoredRuntime } from './runtime';
import { scormFraction, scormState } from './scorm';
import type { ScormKind, ScormState } from './scorm';
import { scorePage } from './score';
import { scormStatements } from './statements';

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
