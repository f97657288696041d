import { createHash } from 'node:crypto';
import type { Db, DbKind } from '../../db/db';
import { ApiError } from '../../plugins/errors';
import { writeTx } from '../../db/tx';
import { budgetOf, spend } from '../quotas/budget';

/**
 * The document resources of xAPI-Communication.md §2.2–2.7 (State, Activity Profile, Agent
 * Profile) as one store: a document is named by its resource's parameters, kept as bytes with
 * its media type, and versioned by an ETag (the quoted SHA-1 of its bytes) for the concurrency
 * rules of §3.1 (If-Match / If-None-Match, 412; a profile overwritten blind, 409).
 */
export type DocumentKind = 'state' | 'activity-profile' | 'agent-profile';

export interface DocumentKey {
  kind: DocumentKind;
  activityId: string;
  agentKey: string;
  registration: string;
}

export interface StoredDocument {
  contentType: string;
  content: Buffer;
  etag: string;
  updated: string;
}

export interface Preconditions {
  ifMatch?: string | undefined;
  ifNoneMatch?: string | undefined;
  /** §3.1: PUT of a profile that exists needs If-Match or If-None-Match (409 otherwise). */
  blindOverwriteConflicts: boolean;
}

const etagOf = (content: Buffer) => `"${createHash('sha1').update(content).digest('hex')}"`;
const isJson = (type: string) => /^application\/json\b/i.test(type);

const scope = (db: Db, contextId: string, key: DocumentKey) =>
  db
    .selectFrom('xapiDocuments')
    .where('contextId', '=', contextId)
    .where('kind', '=', key.kind)
    .where('activityId', '=', key.activityId)
    .where('agentKey', '=', key.agentKey)
    .where('registration', '=', key.registration);

export async function getDocument(
  db: Db,
  contextId: string,
  key: DocumentKey,
  docId: string,
): Promise<StoredDocument | null> {
  const row = await scope(db, contextId, key)
    .select(['contentType', 'content', 'etag', 'updated'])
    .where('docId', '=', docId)
    .executeTakeFirst();
  return row ? { ...row, content: Buffer.from(row.content, 'base64') } : null;
}

/** The ids of the documents under `key`, changed after `since` if given. */
export async function listDocumentIds(
  db: Db,
  contextId: string,
  key: DocumentKey,
  since?: string,
): Promise<string[]> {
  let qb = scope(db, contextId, key).select('docId');
  if (since !== undefined) qb = qb.where('updated', '>', since);
  return (await qb.orderBy('docId').execute()).map((r) => r.docId);
}

/** §3.1: If-Match names the current ETag (or *), If-None-Match: * wants no document; else 412. */
function checkPreconditions(current: StoredDocument | null, p: Preconditions): void {
  const failed = () =>
    new ApiError(412, 'INVALID_INPUTS', 'The document changed since you read it (precondition failed).');
  if (p.ifMatch !== undefined) {
    const tags = p.ifMatch.split(',').map((t) => t.trim());
    if (!current || !(tags.includes('*') || tags.includes(current.etag))) throw failed();
  }
  if (p.ifNoneMatch !== undefined) {
    const tags = p.ifNoneMatch.split(',').map((t) => t.trim());
    if (current && (tags.includes('*') || tags.includes(current.etag))) throw failed();
  }
  if (p.blindOverwriteConflicts && p.ifMatch === undefined && p.ifNoneMatch === undefined) {
    // §3.1: a client MUST send one of them on a profile PUT; over an existing document the LRS
    // MUST answer 409 (check the resource, then send If-Match), else the request is malformed.
    if (current)
      throw new ApiError(
        409,
        'INVALID_INPUTS',
        'This document exists: read it, then send If-Match with its ETag to change it.',
      );
    throw new ApiError(400, 'VALIDATION_ERROR', 'A profile PUT needs If-Match or If-None-Match.');
  }
}

/** A write that lost a race retries from a fresh read; past this many, the client is told. */
const MAX_ATTEMPTS = 100;

/**
 * PUT replaces; POST merges two JSON objects (top-level properties, §2.2 "JSON Procedure with
 * Requirements"), or stores when there was nothing; merging anything else is 400.
 *
 * The write lands only on the version it read (issue 36): a new document by an insert that does
 * nothing when another request created it first, a change by an update conditional on the ETag
 * read. Losing the race means reading again and merging into the winner's document. PostgreSQL
 * runs in READ COMMITTED, where a plain read-merge-upsert let concurrent merges overwrite each
 * other (20 merges of distinct keys kept 2); SQLite's single writer never loses a race.
 *
 * `payer`: the learner the document is charged to (launch credentials, or the LMS writing for a
 * cmi5 launch); null for an administrator's client (issue 36 item 1).
 */
export async function writeDocument(
  db: Db,
  kind: DbKind,
  contextId: string,
  key: DocumentKey,
  docId: string,
  body: { contentType: string; content: Buffer },
  mode: 'put' | 'post',
  pre: Preconditions,
  now: Date,
  payer: string | null,
): Promise<void> {
  if (mode === 'post' && isJson(body.contentType)) {
    const incoming = parseObject(body.content);
    if (!incoming) throw new ApiError(400, 'VALIDATION_ERROR', 'A merged document is a JSON object.');
  }
  const budget = budgetOf(db);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const written = await writeTx(db, kind, async (trx) => {
      let { contentType, content } = body;
      const current = await getDocument(trx as unknown as Db, contextId, key, docId);
      checkPreconditions(current, pre);
      if (mode === 'post' && current) {
        const a = isJson(current.contentType) ? parseObject(current.content) : null;
        const b = isJson(contentType) ? parseObject(content) : null;
        if (!a || !b) throw new ApiError(400, 'VALIDATION_ERROR', 'Only JSON objects are merged.');
        content = Buffer.from(JSON.stringify({ ...a, ...b }));
        contentType = 'application/json';
      }
      const row = {
        contentType,
        content: content.toString('base64'),
        etag: etagOf(content),
        updated: now.toISOString(),
      };
      const landed = current
        ? Number(
            (
              await trx
                .updateTable('xapiDocuments')
                .set(row)
                .where('contextId', '=', contextId)
                .where('kind', '=', key.kind)
                .where('activityId', '=', key.activityId)
                .where('agentKey', '=', key.agentKey)
                .where('registration', '=', key.registration)
                .where('docId', '=', docId)
                .where('etag', '=', current.etag)
                .executeTakeFirst()
            ).numUpdatedRows,
          ) === 1
        : (await trx
            .insertInto('xapiDocuments')
            .values({ contextId, ...key, docId, ...row })
            .onConflict((oc) =>
              oc
                .columns(['contextId', 'kind', 'activityId', 'agentKey', 'registration', 'docId'])
                .doNothing(),
            )
            .returning('docId')
            .executeTakeFirst()) !== undefined;
      if (!landed) return false;
      // What is stored, charged with it: a refusal rolls the write back.
      if (payer !== null)
        await spend(
          trx,
          budget,
          { contextId, userId: payer, road: 'documents', rows: 1, bytes: content.length },
          now,
        );
      return true;
    });
    if (written) return;
  }
  throw new ApiError(
    409,
    'INVALID_INPUTS',
    'This document is being changed by many requests at once; send it again.',
  );
}

/**
 * Deletes one document (with its preconditions) or, without `docId`, every one under `key`
 * except those named in `keep` (cmi5 §10.2.1: the AU MUST NOT modify or delete LMS.LaunchData,
 * so a launch's delete-all leaves it, issue 36).
 */
export async function deleteDocuments(
  db: Db,
  kind: DbKind,
  contextId: string,
  key: DocumentKey,
  docId: string | undefined,
  pre: Preconditions,
  keep: string[] = [],
): Promise<void> {
  await writeTx(db, kind, async (trx) => {
    if (docId !== undefined) {
      checkPreconditions(await getDocument(trx as unknown as Db, contextId, key, docId), pre);
    }
    let qb = trx
      .deleteFrom('xapiDocuments')
      .where('contextId', '=', contextId)
      .where('kind', '=', key.kind)
      .where('activityId', '=', key.activityId)
      .where('agentKey', '=', key.agentKey)
      .where('registration', '=', key.registration);
    if (docId !== undefined) qb = qb.where('docId', '=', docId);
    else if (keep.length > 0) qb = qb.where('docId', 'not in', keep);
    await qb.execute();
  });
}

function parseObject(content: Buffer): Record<string, unknown> | null {
  try {
    const v = JSON.parse(content.toString('utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
