import { randomUUID } from 'node:crypto';
import type { Db, DbKind } from '../../db/db';
import { ApiError } from '../../plugins/errors';
import { writeTx } from '../../db/tx';
import type { Tx } from '../../db/tx';
import { budgetOf, spend } from '../quotas/budget';
import type { Budget } from '../quotas/budget';
import { uniqueViolation } from '../../db/constraint-errors';
import { recordActivities } from './activities';
import { indexStatements } from './statement-index';
import { VOIDED, actorKey } from './statement-schema';
import type { Actor, Statement } from './statement-schema';

/**
 * The statements resource's storage (xAPI-Communication.md §2.1): immutable statements per
 * tenant, voiding, and the rows the outbox forwards. Every write of a request is one
 * transaction: a request either stores all its statements or none.
 */

/** A statement ready to store: its id assigned, `stored`, `authority` and `version` set. */
export interface StoredStatement {
  id: string;
  userId: string | null;
  /** The credentials that sent it (null: the player's own). */
  credentialKey?: string | null;
  /** False when the LRS filled `timestamp` in (with `stored`): then it is not compared. */
  timestampGiven: boolean;
  body: Omit<Statement, 'authority'> & { id: string; stored: string; authority: Actor; version: string };
}

export const XAPI_VERSION = '1.0.3';

const conflict = (detail: string) => new ApiError(409, 'INVALID_INPUTS', detail);
const malformed = (detail: string) => new ApiError(400, 'VALIDATION_ERROR', detail);

/** Stamps what the LRS owns on a statement (xAPI-Data.md §2.4.8–2.4.10). */
export function prepare(
  statement: Statement,
  userId: string | null,
  authority: Actor,
  stored: string,
  credentialKey: string | null = null,
): StoredStatement {
  const id = (statement.id ?? randomUUID()).toLowerCase();
  return {
    id,
    userId,
    credentialKey,
    timestampGiven: statement.timestamp !== undefined,
    body: {
      ...withActivityLists(statement),
      id,
      timestamp: statement.timestamp ?? stored,
      stored,
      authority,
      // xAPI-Data.md §2.4.10: kept as accepted; 1.0.0 when the statement had none.
      version: statement.version ?? '1.0.0',
    },
  };
}

/**
 * xAPI-Data.md §2.4.6.2: a single contextActivities object is returned as an array of one, so
 * it is stored as such (in the statement and in a SubStatement object).
 */
function withActivityLists<T extends { context?: Statement['context']; object?: unknown }>(s: T): T {
  const ca = s.context?.contextActivities;
  const lists = ca
    ? Object.fromEntries(
        Object.entries(ca).map(([k, v]) => [k, v === undefined || Array.isArray(v) ? v : [v]]),
      )
    : undefined;
  const o = s.object as { objectType?: string } | undefined;
  return {
    ...s,
    ...(lists ? { context: { ...s.context, contextActivities: lists } } : {}),
    ...(o?.objectType === 'SubStatement' ? { object: withActivityLists(o as T) } : {}),
  };
}

/** JSON with sorted keys: two statements compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Statement comparison (xAPI-Data.md "Statement comparison requirements"): what the LRS set
 * (`stored`, `authority`, `version`) does not count, and timestamps compare as instants.
 */
function sameStatement(a: StoredStatement['body'], b: StoredStatement): boolean {
  const strip = (s: StoredStatement['body']) => ({
    ...s,
    stored: undefined,
    authority: undefined,
    version: undefined,
    timestamp: b.timestampGiven && s.timestamp ? new Date(s.timestamp).toISOString() : undefined,
  });
  return canonical(strip(a)) === canonical(strip(b.body));
}

/**
 * Stores a batch; returns the ids in order. An id already stored with the same content changes
 * nothing (204/200); with a different content the whole request is refused (409). A voiding
 * statement that targets a voiding statement is refused (400: a voiding statement cannot be
 * voided). `beforeCommit` runs in the same transaction (the outbox rows).
 */
export async function storeStatements(
  db: Db,
  kind: DbKind,
  contextId: string,
  batch: StoredStatement[],
  beforeCommit?: (trx: Tx, inserted: StoredStatement[]) => Promise<void>,
): Promise<{ ids: string[]; inserted: StoredStatement[] }> {
  const budget = budgetOf(db);
  try {
    return await writeTx(db, kind, (trx) => storeStatementsIn(trx, budget, contextId, batch, beforeCommit));
  } catch (err) {
    // Another request stored one of these ids between our read and our insert.
    if (uniqueViolation(err))
      throw conflict('A statement of this request was stored meanwhile; send it again.');
    throw err;
  }
}

/**
 * The same within the caller's transaction (a SCORM commit stores its statements with its data).
 * Each learner whose statements are newly stored is charged for them here (issue 36 item 1):
 * a repeated id costs nothing, a statement sent by an administrator's client (no learner) is
 * nobody's, and a refusal stores none of the batch.
 */
export async function storeStatementsIn(
  trx: Tx,
  budget: Budget,
  contextId: string,
  batch: StoredStatement[],
  beforeCommit?: (trx: Tx, inserted: StoredStatement[]) => Promise<void>,
): Promise<{ ids: string[]; inserted: StoredStatement[] }> {
  const ids = batch.map((s) => s.id);
  if (new Set(ids).size !== ids.length) throw malformed('Two statements of the batch have the same id.');
  if (batch.length === 0) return { ids, inserted: [] };
  const existing = await trx
    .selectFrom('xapiStatements')
    .select(['id', 'body'])
    .where('contextId', '=', contextId)
    .where('id', 'in', ids)
    .execute();
  const known = new Map(existing.map((r) => [r.id, JSON.parse(r.body) as StoredStatement['body']]));
  const inserted: StoredStatement[] = [];
  for (const s of batch) {
    const old = known.get(s.id);
    if (!old) inserted.push(s);
    else if (!sameStatement(old, s))
      throw conflict(`Statement ${s.id} is already stored with another content.`);
  }
  const targets = inserted.filter((s) => s.body.verb.id === VOIDED).map((s) => targetOf(s));
  if (targets.length > 0) {
    const voiding = await trx
      .selectFrom('xapiStatements')
      .select('id')
      .where('contextId', '=', contextId)
      .where('id', 'in', targets)
      .where('voiding', '=', 1)
      .execute();
    const inBatch = inserted.some((s) => s.body.verb.id === VOIDED && targets.includes(s.id));
    if (voiding.length > 0 || inBatch) throw malformed('A voiding statement cannot be voided.');
  }
  await chargeLearners(trx, budget, contextId, inserted);
  if (inserted.length > 0) {
    // xAPI-Data.md §2.3.2: voided iff a voiding statement refers to it, whichever came first.
    const voidedBefore = await trx
      .selectFrom('xapiStatements')
      .select('refId')
      .where('contextId', '=', contextId)
      .where('voiding', '=', 1)
      .where(
        'refId',
        'in',
        inserted.map((s) => s.id),
      )
      .execute();
    const born = new Set(voidedBefore.map((r) => r.refId));
    await trx
      .insertInto('xapiStatements')
      .values(
        inserted.map((s) => ({
          ...rowOf(contextId, s),
          voided: born.has(s.id) && s.body.verb.id !== VOIDED ? 1 : 0,
        })),
      )
      .execute();
  }
  if (targets.length > 0) {
    await trx
      .updateTable('xapiStatements')
      .set({ voided: 1 })
      .where('contextId', '=', contextId)
      .where('id', 'in', targets)
      .where('voiding', '=', 0)
      .execute();
  }
  if (inserted.length > 0) {
    await recordActivities(trx, contextId, inserted);
    await indexStatements(trx, contextId, inserted);
  }
  if (beforeCommit && inserted.length > 0) await beforeCommit(trx, inserted);
  return { ids, inserted };
}

/** Charges each learner for their statements newly stored, with the launch that sent them. */
async function chargeLearners(trx: Tx, budget: Budget, contextId: string, inserted: StoredStatement[]) {
  const byPayer = new Map<
    string,
    { userId: string; launchKey: string | undefined; rows: number; bytes: number }
  >();
  for (const s of inserted) {
    if (s.userId === null) continue;
    const launchKey = s.credentialKey ?? undefined;
    const key = `${s.userId} ${launchKey ?? ''}`;
    const p = byPayer.get(key) ?? { userId: s.userId, launchKey, rows: 0, bytes: 0 };
    p.rows += 1;
    p.bytes += Buffer.byteLength(JSON.stringify(s.body));
    byPayer.set(key, p);
  }
  const now = new Date(inserted[0]?.body.stored ?? Date.now());
  for (const p of byPayer.values()) await spend(trx, budget, { contextId, road: 'statements', ...p }, now);
}

function targetOf(s: StoredStatement): string {
  return (s.body.object as { id: string }).id.toLowerCase();
}

function rowOf(contextId: string, s: StoredStatement) {
  const o = s.body.object as { objectType?: string; id?: string };
  const isActivity = o.objectType === undefined || o.objectType === 'Activity';
  const voiding = s.body.verb.id === VOIDED;
  return {
    contextId,
    id: s.id,
    userId: s.userId,
    actorKey: actorKey(s.body.actor) ?? '',
    verbId: s.body.verb.id,
    activityId: isActivity ? (o.id ?? null) : null,
    refId: o.objectType === 'StatementRef' ? (o.id ?? '').toLowerCase() : null,
    registration: s.body.context?.registration?.toLowerCase() ?? null,
    voiding: voiding ? 1 : 0,
    voided: 0,
    stored: s.body.stored,
    body: JSON.stringify(s.body),
    credentialKey: s.credentialKey ?? null,
  };
}

export interface StatementRow {
  id: string;
  userId: string | null;
  credentialKey: string | null;
  voided: number;
  stored: string;
  body: string;
}

export async function findStatement(
  db: Db,
  contextId: string,
  id: string,
): Promise<StatementRow | undefined> {
  return db
    .selectFrom('xapiStatements')
    .select(['id', 'userId', 'credentialKey', 'voided', 'stored', 'body'])
    .where('contextId', '=', contextId)
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
}

export interface StatementQuery {
  /** Launch credentials read their learner's statements only. */
  userId?: string | undefined;
  /** A client with `statements/read/mine` reads what it stored only. */
  credentialKey?: string | undefined;
  /** The `agent` filter: its actorKey. */
  agentKey?: string | undefined;
  relatedAgents?: boolean;
  relatedActivities?: boolean;
  verb?: string | undefined;
  activity?: string | undefined;
  registration?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  ascending: boolean;
  limit: number;
  /** The last statement of the previous page (`more`). */
  after?: { stored: string; id: string } | undefined;
}

/**
 * One page of a query, voided statements left out; one more row tells whether there is a next
 * page. With a filter (agent, verb, activity, registration), a statement that refers to a
 * matching one by StatementRef matches too, however deep (§2.1.3 "Filter Conditions for
 * StatementRefs"), even when the one it refers to is voided: a recursive CTE over `ref_id`.
 */
export async function queryStatements(db: Db, contextId: string, q: StatementQuery): Promise<StatementRow[]> {
  return statementsQuery(db, contextId, q).execute();
}

/** The query of `queryStatements`, apart so a test can read its plan. */
export function statementsQuery(db: Db, contextId: string, q: StatementQuery) {
  const filtered =
    q.agentKey !== undefined ||
    q.verb !== undefined ||
    q.activity !== undefined ||
    q.registration !== undefined;
  const base = db.withRecursive('m(id)', (cte) => {
    let f = cte.selectFrom('xapiStatements as f').select('f.id').where('f.contextId', '=', contextId);
    if (q.agentKey !== undefined) {
      let sub = cte
        .selectFrom('xapiStatementAgents')
        .select('statementId')
        .where('contextId', '=', contextId)
        .where('agentKey', '=', q.agentKey);
      if (!q.relatedAgents) sub = sub.where('direct', '=', 1);
      f = f.where('f.id', 'in', sub);
    }
    if (q.activity !== undefined) {
      let sub = cte
        .selectFrom('xapiStatementActivities')
        .select('statementId')
        .where('contextId', '=', contextId)
        .where('activityId', '=', q.activity);
      if (!q.relatedActivities) sub = sub.where('direct', '=', 1);
      f = f.where('f.id', 'in', sub);
    }
    if (q.verb !== undefined) f = f.where('f.verbId', '=', q.verb);
    if (q.registration !== undefined) f = f.where('f.registration', '=', q.registration.toLowerCase());
    return f.union((eb) =>
      eb
        .selectFrom('xapiStatements as r')
        .innerJoin('m', 'm.id', 'r.refId')
        .select('r.id')
        .where('r.contextId', '=', contextId),
    );
  });
  let qb = base
    .selectFrom('xapiStatements')
    .select(['id', 'userId', 'credentialKey', 'voided', 'stored', 'body'])
    .where('contextId', '=', contextId)
    .where('voided', '=', 0);
  if (filtered) qb = qb.where('id', 'in', (eb) => eb.selectFrom('m').select('m.id'));
  if (q.userId !== undefined) qb = qb.where('userId', '=', q.userId);
  if (q.credentialKey !== undefined) qb = qb.where('credentialKey', '=', q.credentialKey);
  if (q.since !== undefined) qb = qb.where('stored', '>', q.since);
  if (q.until !== undefined) qb = qb.where('stored', '<=', q.until);
  const after = q.after;
  if (after) {
    const op = q.ascending ? '>' : '<';
    qb = qb.where((eb) =>
      eb.or([
        eb('stored', op, after.stored),
        eb.and([eb('stored', '=', after.stored), eb('id', op, after.id)]),
      ]),
    );
  }
  const dir = q.ascending ? 'asc' : 'desc';
  return qb
    .orderBy('stored', dir)
    .orderBy('id', dir)
    .limit(q.limit + 1);
}
