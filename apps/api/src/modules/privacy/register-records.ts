import type { Db } from '../../db/db';
import type { Learner } from './learner';
import { deleteByUser, deleteWhere, inTenant, nonEmpty, rowsOfUser } from './register-types';
import type { EraseRun, RegisterEntry } from './register-types';

/**
 * The register's learning records (decision 0056): xAPI statements of every client, what hangs
 * off them (attachment parts, the agent and activity index, the forwarding outbox), State and
 * agent profile documents, launch credentials, package launches and runtime data. Erasure order:
 * a statement before the attachment parts only it referred to.
 */

/**
 * Statements about her: stored for her (`user_id`), or with her as actor or object (`about`, what
 * the export gives her); with `naming`, also those that name her only as another's instructor,
 * team, authority or in a SubStatement — another person's record, which GDPR article 15(4) keeps
 * out of her copy, but which erasure removes since it names her.
 */
export function statementIdsOf(db: Db, who: Learner, reach: 'about' | 'naming') {
  let named = db
    .selectFrom('xapiStatementAgents')
    .select('statementId')
    .where('contextId', '=', who.contextId)
    .where('agentKey', 'in', who.agentKeys);
  if (reach === 'about') named = named.where('direct', '=', 1);
  return db
    .selectFrom('xapiStatements')
    .select('id')
    .where('contextId', '=', who.contextId)
    .where((eb) =>
      eb.or([eb('userId', '=', who.userId), eb('actorKey', 'in', who.agentKeys), eb('id', 'in', named)]),
    );
}

/** Deletes the rows that hang off her statements (found before anything went). */
const deleteOfStatements =
  (table: 'xapiOutbox' | 'xapiStatementActivities') => async (trx: Db, who: Learner, run: EraseRun) => {
    await trx
      .deleteFrom(table)
      .where('contextId', '=', who.contextId)
      .where('statementId', 'in', nonEmpty(run.statementIds, ''))
      .execute();
  };

export const LEARNING_RECORDS: RegisterEntry[] = [
  {
    table: 'xapi_statements',
    columns: ['user_id', 'actor_key', 'body'],
    // Exported: those about her (`statementIdsOf(…, 'about')`); erased: every one naming her.
    find: 'user_id = her id (the player, her launches), actor_key one of her agent keys (any LRS client), or an agent the index says the statement names (object; instructor, team, authority: erasure only)',
    export: {
      section: 'statements',
      rows: async (x) =>
        (
          await x.db
            .selectFrom('xapiStatements')
            .select('body')
            .where('contextId', '=', inTenant(x))
            .where('id', 'in', statementIdsOf(x.db, x.who, 'about'))
            .orderBy('stored')
            .orderBy('id')
            .execute()
        ).map((s) => JSON.parse(s.body) as unknown),
    },
    erase: {
      // A statement is immutable (xAPI-Data.md §2.3): one that names her goes whole, another
      // learner's record of the same event with it.
      action: 'delete',
      run: async (trx, who, run) => {
        await trx
          .deleteFrom('xapiStatements')
          .where('contextId', '=', who.contextId)
          .where('id', 'in', nonEmpty(run.statementIds, ''))
          .execute();
      },
    },
  },
  {
    table: 'xapi_attachments',
    columns: ['sha2'],
    find: 'the parts her statements refer to (attachments[].sha2)',
    export: {
      section: 'attachments',
      rows: async (x) => {
        const sha2s = await attachmentHashes(x.db, x.who, 'about');
        if (sha2s.length === 0) return [];
        return x.db
          .selectFrom('xapiAttachments')
          .select(['sha2', 'contentType', 'content as base64'])
          .where('contextId', '=', inTenant(x))
          .where('sha2', 'in', sha2s)
          .execute();
      },
    },
    erase: {
      // A part is kept once per tenant by its hash: it goes unless a statement left refers to it.
      action: 'delete',
      run: async (trx, who, run) => {
        for (const sha2 of run.sha2s) {
          const used = await trx
            .selectFrom('xapiStatements')
            .select('id')
            .where('contextId', '=', who.contextId)
            .where('body', 'like', `%${sha2}%`)
            .executeTakeFirst();
          if (!used)
            await trx
              .deleteFrom('xapiAttachments')
              .where('contextId', '=', who.contextId)
              .where('sha2', '=', sha2)
              .execute();
        }
      },
    },
  },
  {
    table: 'xapi_documents',
    columns: ['agent_key'],
    find: 'State and agent profile documents under one of her agent keys (any client)',
    export: {
      section: 'documents',
      rows: async (x) =>
        (
          await x.db
            .selectFrom('xapiDocuments')
            .select(['kind', 'activityId', 'registration', 'docId', 'contentType', 'content', 'updated'])
            .where('contextId', '=', inTenant(x))
            .where('agentKey', 'in', x.who.agentKeys)
            .execute()
        ).map(({ content, ...d }) => ({ ...d, ...documentBody(d.contentType, content) })),
    },
    erase: { action: 'delete', run: deleteWhere('xapiDocuments', 'agentKey', (who) => who.agentKeys) },
  },
  {
    table: 'xapi_outbox',
    columns: ['statement_id'],
    find: 'rows of her statements',
    export: {
      section: 'forwarding',
      rows: (x) =>
        x.db
          .selectFrom('xapiOutbox')
          .select(['statementId', 'attempts', 'deliveredAt', 'refusedAt', 'createdAt'])
          .where('contextId', '=', inTenant(x))
          .where('statementId', 'in', statementIdsOf(x.db, x.who, 'about'))
          .execute(),
    },
    erase: { action: 'delete', run: deleteOfStatements('xapiOutbox') },
  },
  {
    table: 'xapi_statement_agents',
    columns: ['agent_key', 'statement_id'],
    find: 'rows under her agent keys, and every row of her statements',
    export: { leftOut: 'an index of the statements, which the export holds whole' },
    erase: {
      action: 'delete',
      run: async (trx, who, run) => {
        await trx
          .deleteFrom('xapiStatementAgents')
          .where('contextId', '=', who.contextId)
          .where((eb) =>
            eb.or([
              eb('agentKey', 'in', who.agentKeys),
              eb('statementId', 'in', nonEmpty(run.statementIds, '')),
            ]),
          )
          .execute();
      },
    },
  },
  {
    table: 'xapi_statement_activities',
    columns: ['statement_id'],
    find: 'rows of her statements',
    export: { leftOut: 'an index of the statements, which the export holds whole' },
    erase: { action: 'delete', run: deleteOfStatements('xapiStatementActivities') },
  },
  {
    table: 'package_runtime',
    columns: ['user_id'],
    find: 'user_id = her id',
    export: { section: 'packageProgress', rows: rowsOfUser('packageRuntime') },
    erase: { action: 'delete', run: deleteByUser('packageRuntime') },
  },
  {
    table: 'package_launches',
    columns: ['user_id'],
    find: 'user_id = her id',
    export: {
      section: 'packageLaunches',
      // Left out: the launch's secret and the hash of its one fetch.
      rows: async (x) =>
        (
          await x.db
            .selectFrom('packageLaunches')
            .selectAll()
            .where('contextId', '=', inTenant(x))
            .where('userId', '=', x.who.userId)
            .execute()
        ).map(({ secretHash: _s, fetchHash: _f, ...l }) => l),
    },
    erase: { action: 'delete', run: deleteByUser('packageLaunches') },
  },
  {
    table: 'xapi_credentials',
    columns: ['user_id'],
    find: 'user_id = her id',
    export: {
      section: 'launchCredentials',
      rows: (x) =>
        x.db
          .selectFrom('xapiCredentials')
          .select(['key', 'lessonId', 'pageId', 'registration', 'expiresAt', 'createdAt'])
          .where('contextId', '=', inTenant(x))
          .where('userId', '=', x.who.userId)
          .execute(),
    },
    erase: { action: 'delete', run: deleteByUser('xapiCredentials') },
  },
];

/** The attachment hashes the statements about (or naming) her refer to. */
export async function attachmentHashes(db: Db, who: Learner, reach: 'about' | 'naming'): Promise<string[]> {
  const rows = await db
    .selectFrom('xapiStatements')
    .select('body')
    .where('contextId', '=', who.contextId)
    .where('id', 'in', statementIdsOf(db, who, reach))
    .where('body', 'like', '%"sha2"%')
    .execute();
  const out = new Set<string>();
  for (const r of rows)
    for (const a of (JSON.parse(r.body) as { attachments?: { sha2?: string }[] }).attachments ?? [])
      if (typeof a.sha2 === 'string') out.add(a.sha2.toLowerCase());
  return [...out];
}

/** A document as JSON when it is JSON, as text when it is text, else as base64. */
function documentBody(contentType: string, base64: string): Record<string, unknown> {
  const bytes = Buffer.from(base64, 'base64');
  if (/^application\/json\b/i.test(contentType)) {
    try {
      return { json: JSON.parse(bytes.toString('utf8')) as unknown };
    } catch {
      // Stored as JSON but unreadable: given as bytes.
    }
  }
  if (/^text\//i.test(contentType)) return { text: bytes.toString('utf8') };
  return { base64 };
}
