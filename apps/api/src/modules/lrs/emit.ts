import type { Db, DbKind } from '../../db/db';
import { parseJson } from '../../db/schema';
import { installationSecret } from '../../db/secrets';
import { stableId } from '../../lib/ids';
import type { ContextRow } from '../contexts/repository';
import { homePageOf, learnerAgent, registrationOf } from './credentials';
import { enqueueForwarding } from './forward';
import type { Agent, Statement } from './statement-schema';
import { prepare, storeStatements } from './store';
import type { StoredStatement } from './store';

/**
 * Statements the player itself records for the learner's actions (issue 14): launched, answered
 * (with the result), hint unlocked, lesson completed. They are emitted AFTER the player's
 * transaction commits, off its path: queued in memory and written in batches, one transaction
 * per tenant and flush. If the process dies between the commit and the flush, those statements
 * are lost; the answer itself is not (decision 0017 says why that trade is taken).
 */

const VERB = {
  launched: { id: 'http://adlnet.gov/expapi/verbs/launched', display: { 'en-US': 'launched' } },
  experienced: { id: 'http://adlnet.gov/expapi/verbs/experienced', display: { 'en-US': 'experienced' } },
  answered: { id: 'http://adlnet.gov/expapi/verbs/answered', display: { 'en-US': 'answered' } },
  unlocked: { id: 'http://id.tincanapi.com/verb/unlocked', display: { 'en-US': 'unlocked' } },
  completed: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } },
};
const blockActivity = (blockId: string) => ({
  objectType: 'Activity' as const,
  id: `urn:parcours:block:${blockId}`,
});
const lessonActivity = (lessonId: string) => ({
  objectType: 'Activity' as const,
  id: `urn:parcours:lesson:${lessonId}`,
});
/** The authority of what the server records itself (the player, a package's runtime). */
export const playerAuthority = (homePage: string): Agent => ({
  objectType: 'Agent',
  name: 'Parcours',
  account: { homePage, name: 'player' },
});

export interface Emitted {
  userId: string;
  statement: Statement;
}

export function launchedStatement(
  actor: Agent,
  registration: string,
  target: { userId: string; lessonId: string; blockId: string | null },
  now: Date,
): Emitted {
  return {
    userId: target.userId,
    statement: {
      actor,
      verb: VERB.launched,
      object: target.blockId ? blockActivity(target.blockId) : lessonActivity(target.lessonId),
      context: { registration, contextActivities: { parent: [lessonActivity(target.lessonId)] } },
      timestamp: now.toISOString(),
    },
  };
}

/** What the player tells after a commit: who did what on which page; the rest is read at flush. */
export interface PlayerEvent {
  kind: 'answered' | 'hint';
  userId: string;
  lessonId: string;
  pageId: string;
  at: Date;
}

/** The page as the flush reads it: its block, recorded score and outcome, hints unlocked. */
interface PageFacts {
  blockId: string | null;
  scoreActual: number;
  scoreMax: number;
  outcome: string | null;
  hintsUsed: number;
}

interface Queued {
  context: Pick<ContextRow, 'id' | 'alias' | 'hosts'>;
  event: PlayerEvent | null;
  emitted: Emitted | null;
}

interface Queue {
  items: Queued[];
  flushing: Promise<void> | null;
  kind: DbKind;
}
const queues = new WeakMap<Db, Queue>();
const FLUSH_DELAY_MS = 20;

/** Queues statements already built (the launch). */
export function emitStatements(
  db: Db,
  kind: DbKind,
  context: Queued['context'],
  statements: Emitted[],
): void {
  for (const emitted of statements) enqueue(db, kind, { context, event: null, emitted });
}

/**
 * Called by the player after its transaction committed (never inside it): queues the event;
 * its statements are built at flush time, with one read of users, lessons and pages per batch.
 */
export function emitPlayerEvent(
  ctx: { db: Db; kind: DbKind; userId: string; receivedAt: Date },
  context: Queued['context'],
  kind: PlayerEvent['kind'],
  lessonId: string,
  pageId: string,
): void {
  const event = { kind, userId: ctx.userId, lessonId, pageId, at: ctx.receivedAt };
  enqueue(ctx.db, ctx.kind, { context, event, emitted: null });
}

function enqueue(db: Db, kind: DbKind, item: Queued) {
  let q = queues.get(db);
  if (!q) {
    q = { items: [], flushing: null, kind };
    queues.set(db, q);
  }
  q.items.push(item);
  // A short delay: writes of many answers share one transaction, well after their responses left.
  if (!q.flushing)
    q.flushing = new Promise((resolve) => setTimeout(resolve, FLUSH_DELAY_MS)).then(() => drain(db, q));
}

/**
 * Writes statements built by the caller at once, not queued: what must be in the LRS before the
 * caller answers (cmi5's launched statement precedes the AU's launch, issue 31).
 */
export async function storeEmittedNow(
  db: Db,
  kind: DbKind,
  context: Queued['context'],
  statements: Emitted[],
): Promise<void> {
  await write(
    db,
    kind,
    statements.map((emitted) => ({ context, event: null, emitted })),
  );
}

/** Resolves once every statement queued so far is written (tests, shutdown). */
export async function flushEmitted(db: Db): Promise<void> {
  while (queues.get(db)?.flushing) await queues.get(db)?.flushing;
}

async function drain(db: Db, q: Queue): Promise<void> {
  try {
    while (q.items.length > 0) {
      const items = q.items.splice(0, 200);
      try {
        await write(db, q.kind, items);
      } catch {
        // A lost learning record must never fail or slow the player; the answer is committed.
      }
    }
  } finally {
    q.flushing = null;
  }
}

/**
 * One completion per lesson: its id is derived from the lesson and a secret of the installation,
 * so the same lesson always gets the same id (a second completion is skipped) but nobody can
 * compute it and store a statement under it first (R3-03/R3-04: that used to stop a classmate's
 * completion from ever being recorded).
 */
const secrets = new WeakMap<Db, Promise<string>>();
function completionSecret(db: Db): Promise<string> {
  let s = secrets.get(db);
  if (!s) {
    s = installationSecret(db, 'xapi-completion-ids');
    s.catch(() => secrets.delete(db));
    secrets.set(db, s);
  }
  return s;
}

async function write(db: Db, kind: DbKind, items: Queued[]): Promise<void> {
  let failed: unknown;
  const userIds = [...new Set(items.map((i) => i.event?.userId).filter((u): u is string => !!u))];
  const lessonIds = [...new Set(items.map((i) => i.event?.lessonId).filter((u): u is string => !!u))];
  const users = userIds.length
    ? await db.selectFrom('users').select(['id', 'tincanIdentifier']).where('id', 'in', userIds).execute()
    : [];
  const completedLessons = lessonIds.length
    ? await db
        .selectFrom('lessons')
        .select('id')
        .where('id', 'in', lessonIds)
        .where('progress', '=', 'COMPLETED')
        .execute()
    : [];
  const pageIds = [...new Set(items.map((i) => i.event?.pageId).filter((u): u is string => !!u))];
  const pages = pageIds.length
    ? await db
        .selectFrom('lessonPages as p')
        .innerJoin('courseNodes as n', 'n.id', 'p.nodeId')
        .select(['p.id', 'n.blockId', 'p.scoreActual', 'p.scoreMax', 'p.results', 'p.hintsUsed'])
        .where('p.id', 'in', pageIds)
        .execute()
    : [];
  const pageOf = new Map<string, PageFacts>(
    pages.map((p) => [
      p.id,
      { ...p, outcome: parseJson<{ outcome?: string } | null>(p.results, null)?.outcome ?? null },
    ]),
  );
  const userOf = new Map(users.map((u) => [u.id, u]));
  const done = new Set(completedLessons.map((l) => l.id));
  const secret = done.size > 0 ? await completionSecret(db) : '';
  const byContext = new Map<string, { context: Queued['context']; list: (Emitted & { id?: string })[] }>();
  for (const item of items) {
    const entry = byContext.get(item.context.id) ?? { context: item.context, list: [] };
    byContext.set(item.context.id, entry);
    if (item.emitted) entry.list.push(item.emitted);
    const user = item.event ? userOf.get(item.event.userId) : undefined;
    const page = item.event ? pageOf.get(item.event.pageId) : undefined;
    if (item.event && user && page)
      entry.list.push(...eventStatements(item.context, user, item.event, page, done, secret));
  }
  for (const { context, list } of byContext.values()) {
    const stored = new Date().toISOString();
    // One completion per lesson: its id is derived from the lesson, and an id already stored is skipped.
    const fixed = list.map((e) => e.statement.id).filter((id): id is string => !!id);
    const existing = fixed.length
      ? new Set(
          (
            await db
              .selectFrom('xapiStatements')
              .select('id')
              .where('contextId', '=', context.id)
              .where('id', 'in', fixed)
              .execute()
          ).map((r) => r.id),
        )
      : new Set<string>();
    const seen = new Set<string>();
    const batch = list
      .filter(
        (e) =>
          !e.statement.id ||
          (!existing.has(e.statement.id) && !seen.has(e.statement.id) && seen.add(e.statement.id)),
      )
      .map((e) => prepare(e.statement, e.userId, playerAuthority(homePageOf(context)), stored));
    // One transaction per learner: each is charged for their own statements (issue 36), and one
    // learner past their budget loses their own, never a classmate's.
    const byLearner = new Map<string, StoredStatement[]>();
    for (const s of batch) byLearner.set(s.userId ?? '', [...(byLearner.get(s.userId ?? '') ?? []), s]);
    for (const own of byLearner.values()) {
      try {
        await storeStatements(db, kind, context.id, own, (trx, rows) =>
          enqueueForwarding(trx, context, rows, stored),
        );
      } catch (err) {
        failed ??= err;
      }
    }
  }
  if (failed !== undefined) throw failed;
}

function eventStatements(
  context: Queued['context'],
  user: { id: string; tincanIdentifier: string | null },
  e: PlayerEvent,
  page: PageFacts,
  completedLessons: Set<string>,
  secret: string,
): Emitted[] {
  const actor = learnerAgent(context, user);
  const object = page.blockId ? blockActivity(page.blockId) : lessonActivity(e.lessonId);
  const ctx = {
    registration: registrationOf(page.blockId),
    contextActivities: { parent: [lessonActivity(e.lessonId)] },
  };
  const timestamp = e.at.toISOString();
  const out: Emitted[] = [];
  if (e.kind === 'answered') {
    const s = { actual: page.scoreActual, max: page.scoreMax };
    out.push({
      userId: user.id,
      statement: {
        actor,
        // A page worth nothing (a slide, a module closed unscored) was seen, not answered.
        verb: page.scoreMax > 0 ? VERB.answered : VERB.experienced,
        object,
        context: ctx,
        timestamp,
        result: {
          completion: true,
          ...(page.outcome ? { success: page.outcome === 'correct' } : {}),
          ...(s.max > 0
            ? {
                score: {
                  raw: s.actual,
                  min: 0,
                  max: s.max,
                  scaled: Math.max(-1, Math.min(1, s.actual / s.max)),
                },
              }
            : {}),
        },
      },
    });
    if (completedLessons.has(e.lessonId)) {
      out.push({
        userId: user.id,
        statement: {
          id: stableId(secret, 'lesson-completed', e.lessonId),
          actor,
          verb: VERB.completed,
          object: lessonActivity(e.lessonId),
          timestamp,
        },
      });
    }
  } else {
    out.push({
      userId: user.id,
      statement: {
        actor,
        verb: VERB.unlocked,
        object: { objectType: 'Activity', id: `${object.id}:hint:${page.hintsUsed}` },
        context: ctx,
        timestamp,
      },
    });
  }
  return out;
}
