import type { FastifyRequest } from 'fastify';
import type { Db, DbKind } from '../../db/db';
import { ApiError } from '../../plugins/errors';
import { checkAttachments, storeParts } from './attachments';
import type { Part } from './attachments';
import { homePageOf } from './credentials';
import { budgetOf } from '../quotas/budget';
import type { Quotas } from '../quotas/config';
import { enqueueForwarding } from './forward';
import { formatStatement } from './format';
import type { Format } from './format';
import { authorityOf, forbidden, readReach, requireScope } from './principal';
import type { Principal } from './principal';
import { scoreByStatements } from './scoring';
import { afterPackageStatements, beforePackageStatements } from '../packages/lrs-hook';
import { statementSchema, actorKey, agentSchema, iri, timestamp, uuid } from './statement-schema';
import type { Statement } from './statement-schema';
import { findStatement, prepare, queryStatements, storeStatements } from './store';
import type { StatementQuery, StoredStatement } from './store';
import { depthOver } from '../../lib/depth';

/** What a statements-resource call needs: the database, its clock and the request (tenant, origin). */
export interface LrsOptions {
  db: Db;
  kind: DbKind;
  now: Date;
  request: FastifyRequest;
  /** The app's quotas; the stores charge them (modules/quotas/budget.ts). */
  quotas?: Quotas;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;
/** docs/api.md "Learning records": deeper or larger statements are refused with 400 (R3-07). */
export const MAX_STATEMENT_DEPTH = 32;
export const MAX_STATEMENT_BYTES = 64 * 1024;

const malformed = (detail: string, pointer?: string) =>
  new ApiError(400, 'VALIDATION_ERROR', detail, pointer === undefined ? undefined : { pointer });

/** The key of a learner: the only actor launch credentials may speak for. */
export const learnerKey = (o: LrsOptions, userId: string) =>
  `account:${homePageOf(o.request.context)}|${userId}`;

/** Parses a request body into statements; the first problem refuses the whole request. */
function parseBatch(body: unknown): Statement[] {
  const list = Array.isArray(body) ? body : [body];
  if (body === undefined || body === null || list.length === 0)
    throw malformed('A statement or a non-empty array of statements is required.');
  if (list.length > MAX_LIMIT) throw malformed(`At most ${MAX_LIMIT} statements per request.`);
  return list.map((item, i) => {
    const at = Array.isArray(body) ? `/${i}` : '/';
    if (depthOver(item, MAX_STATEMENT_DEPTH))
      throw malformed(`A statement nests at most ${MAX_STATEMENT_DEPTH} levels deep.`, at);
    if (Buffer.byteLength(JSON.stringify(item)) > MAX_STATEMENT_BYTES)
      throw malformed(`A statement is at most ${MAX_STATEMENT_BYTES} bytes of JSON.`, at);
    const parsed = statementSchema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = [...(Array.isArray(body) ? [i] : []), ...(issue?.path ?? [])].join('/');
      throw malformed(`Malformed statement: ${issue?.message ?? 'invalid'}`, `/${path}`);
    }
    return parsed.data;
  });
}

/**
 * Stores statements sent by `p`: launch credentials only about their learner (else 403), then
 * the launch's page is scored; a client needs a scope that writes statements.
 */
async function store(
  o: LrsOptions,
  p: Principal,
  statements: Statement[],
  parts: Map<string, Part>,
): Promise<string[]> {
  requireScope(p, 'statements/write');
  await checkAttachments(statements, parts);
  const cred = p.launch;
  if (cred) {
    const mine = learnerKey(o, cred.userId);
    for (const s of statements) {
      if (actorKey(s.actor) !== mine)
        throw forbidden('These credentials may only record statements of their learner.');
    }
  }
  const authority = authorityOf(o.request, p);
  const stored = o.now.toISOString();
  const batch = statements.map((s) => prepare(s, cred?.userId ?? null, authority, stored, p.key));
  if (cred) await refuseForeignVoiding(o, cred.userId, batch);
  // A cmi5 AU's statements are checked against its session before any is stored (issue 39).
  const check = cred ? await beforePackageStatements(o, cred, statements) : { state: null };
  const { ids, inserted } = await storeStatements(
    o.db,
    o.kind,
    o.request.context.id,
    batch,
    async (trx, rows) => {
      // The statements were charged to their learner by the store; the parts are charged by theirs.
      await storeParts(trx, budgetOf(o.db), o.request.context.id, cred?.userId ?? null, parts, o.now);
      await enqueueForwarding(trx, o.request.context, rows, stored);
    },
  );
  // A cmi5 package decides its page's score by moveOn; anything else by the module rule.
  if (cred && !(await afterPackageStatements(o, cred, inserted, check)))
    await scoreByStatements(o, cred, inserted);
  return ids;
}

/**
 * A learner voids only their own statements, and only statements that exist (R3-03): a voiding
 * statement for an id not stored yet would void a classmate's statement before it arrives, so it
 * is refused with 400 (the target may come earlier in the same batch).
 */
async function refuseForeignVoiding(o: LrsOptions, userId: string, batch: StoredStatement[]) {
  const earlier = new Set<string>();
  for (const s of batch) {
    const obj = s.body.object as { objectType?: string; id?: string };
    const voiding =
      s.body.verb.id === 'http://adlnet.gov/expapi/verbs/voided' && obj.objectType === 'StatementRef';
    if (voiding) {
      const id = (obj.id ?? '').toLowerCase();
      if (!earlier.has(id)) {
        const target = await findStatement(o.db, o.request.context.id, id);
        if (!target) throw malformed('A voiding statement targets a statement already stored.', '/object/id');
        if (target.userId !== userId) throw forbidden('These credentials may not void this statement.');
      }
    }
    earlier.add(s.id);
  }
}

export async function putStatement(
  o: LrsOptions,
  cred: Principal,
  statementId: string,
  body: unknown,
  parts: Map<string, Part> = new Map(),
): Promise<void> {
  if (!uuid.safeParse(statementId).success) throw malformed('statementId must be a UUID.', '/statementId');
  if (Array.isArray(body)) throw malformed('PUT stores one statement.');
  const [statement] = parseBatch(body);
  if (statement?.id !== undefined && statement.id.toLowerCase() !== statementId.toLowerCase()) {
    throw malformed('The statement id differs from statementId.', '/id');
  }
  await store(o, cred, [{ ...(statement as Statement), id: statementId.toLowerCase() }], parts);
}

export async function postStatements(
  o: LrsOptions,
  cred: Principal,
  body: unknown,
  parts: Map<string, Part> = new Map(),
): Promise<string[]> {
  return store(o, cred, parseBatch(body), parts);
}

/**
 * One statement: by `statementId` unless voided (then 404), by `voidedStatementId` only when
 * voided. Another learner's statement: 403.
 */
export async function getStatement(
  o: LrsOptions,
  p: Principal,
  id: string,
  voided: boolean,
  format: Format = 'exact',
): Promise<{ statement: unknown; stored: string } | null> {
  requireScope(p, 'statements/read');
  if (!uuid.safeParse(id).success) throw malformed('A statement id is a UUID.');
  const row = await findStatement(o.db, o.request.context.id, id);
  if (!row) return null;
  const reach = readReach(p);
  if (reach === 'learner' && row.userId !== p.launch?.userId)
    throw forbidden("These credentials may not read another learner's statements.");
  if (reach === 'mine' && row.credentialKey !== p.key)
    throw forbidden('These credentials read only the statements they stored.');
  if ((row.voided === 1) !== voided) return null;
  const statement = formatStatement(JSON.parse(row.body), format, acceptLanguage(o));
  return { statement, stored: row.stored };
}

const acceptLanguage = (o: LrsOptions) => {
  const v = o.request.headers['accept-language'];
  return typeof v === 'string' ? v : undefined;
};

type QueryParams = Partial<Record<string, string | number | undefined>>;

/** The cursor of `more`: the query and where the last page ended, opaque to clients. */
interface Cursor {
  q: QueryParams;
  after: { stored: string; id: string };
}
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decodeCursor(text: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.after?.stored === 'string' && typeof c.after.id === 'string' && typeof c.q === 'object')
      return c;
  } catch {
    // Falls through to the refusal.
  }
  throw malformed('This more link is not valid.', '/cursor');
}

const instant = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  if (!timestamp.safeParse(v).success) throw malformed(`${name} must be an ISO 8601 timestamp.`, `/${name}`);
  return new Date(v).toISOString();
};

/** GET statements by query (xAPI-Communication.md §2.1.3), paged by `more`. */
export async function queryResult(
  o: LrsOptions,
  p: Principal,
  params: QueryParams,
): Promise<{ statements: unknown[]; more: string }> {
  requireScope(p, 'statements/read');
  const learner = p.launch?.userId;
  const cursor = typeof params.cursor === 'string' ? decodeCursor(params.cursor) : null;
  const given = cursor ? cursor.q : params;
  const str = (k: string) => (typeof given[k] === 'string' ? (given[k] as string) : undefined);
  let agentKey: string | undefined;
  if (str('agent') !== undefined) {
    let agent: unknown;
    try {
      agent = JSON.parse(str('agent') as string);
    } catch {
      throw malformed('agent must be a JSON agent.', '/agent');
    }
    const parsed = agentSchema.safeParse(agent);
    if (!parsed.success) throw malformed('agent must be a JSON agent.', '/agent');
    agentKey = actorKey(parsed.data) ?? undefined;
    if (learner !== undefined && agentKey !== learnerKey(o, learner))
      throw forbidden("These credentials may not read another learner's statements.");
  }
  for (const k of ['verb', 'activity'] as const) {
    if (str(k) !== undefined && !iri.safeParse(str(k)).success)
      throw malformed(`${k} must be an IRI.`, `/${k}`);
  }
  if (str('registration') !== undefined && !uuid.safeParse(str('registration')).success) {
    throw malformed('registration must be a UUID.', '/registration');
  }
  const limit = Number(given.limit ?? 0) || DEFAULT_LIMIT;
  const q: StatementQuery = {
    userId: learner,
    credentialKey: readReach(p) === 'mine' ? p.key : undefined,
    agentKey,
    relatedAgents: str('related_agents') === 'true',
    relatedActivities: str('related_activities') === 'true',
    verb: str('verb'),
    activity: str('activity'),
    registration: str('registration'),
    since: instant('since', str('since')),
    until: instant('until', str('until')),
    ascending: str('ascending') === 'true',
    limit: Math.min(limit, MAX_LIMIT),
    after: cursor?.after,
  };
  const rows = await queryStatements(o.db, o.request.context.id, q);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const more =
    rows.length > q.limit && last
      ? `/api/xapi/statements?cursor=${encodeCursor({ q: { ...given, cursor: undefined }, after: { stored: last.stored, id: last.id } })}`
      : '';
  const format = (str('format') ?? 'exact') as Format;
  const statements = page.map((r) => formatStatement(JSON.parse(r.body), format, acceptLanguage(o)));
  return { statements, more };
}
