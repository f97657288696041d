import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * The whole xAPI 1.0.3 LRS (issue 28, decision 0040).
 *
 * LRS clients: credentials a tenant administrator gives another tool,
 * with the scopes of xAPI 1.0.3 §4.2 (`scopes`, a JSON array); the secret is kept as its SHA-256
 * (256 random bits need no slow hash). `revoked_at` ends them without losing who wrote what.
 * - `xapi_statements.credential_key`: the credentials that stored a statement, so a client
 *   with `statements/read/mine` reads back what it wrote.
 * - `xapi_outbox.refused_at`: the other store refused a statement for good (a 4xx other than
 *   429); the forwarder stops retrying it and reports it.
 *
 * Documents and activities:
 * - `xapi_documents`: State, Activity Profile and Agent Profile documents (`kind`), keyed by
 *   what each resource names them by; a part a resource does not use is ''. `content` is the
 *   body in base64 (documents may be any media type), `etag` its quoted SHA-1.
 * - `xapi_activities`: the definition of each activity seen in a statement, merged (names and
 *   descriptions in every language sent), for the Activities resource.
 *
 * `xapi_attachments`: the raw parts of attachments sent in multipart/mixed, once per SHA-2
 * per tenant (base64), served back with `attachments=true`.
 *
 * What GET statements filters on (xAPI-Communication.md §2.1.3):
 * - `xapi_statement_agents` / `xapi_statement_activities`: each agent and activity a statement
 *   names, `direct` 1 for the actor or object (the plain `agent` / `activity` filters), 0 for
 *   the others `related_agents` / `related_activities` widen to (authority, instructor, team,
 *   context activities, a SubStatement's). Statements stored before are indexed by their actor
 *   and activity object (the columns of 0010), the filters they had.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('xapi_clients')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('xapi_clients_context_ix').on('xapi_clients').columns(['context_id']).execute();
  await db.schema.alterTable('xapi_statements').addColumn('credential_key', 'text').execute();
  await db.schema.alterTable('xapi_outbox').addColumn('refused_at', 'text').execute();
  await db.schema
    .createTable('xapi_documents')
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('activity_id', 'text', (c) => c.notNull())
    .addColumn('agent_key', 'text', (c) => c.notNull())
    .addColumn('registration', 'text', (c) => c.notNull())
    .addColumn('doc_id', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('xapi_documents_pk', [
      'context_id',
      'kind',
      'activity_id',
      'agent_key',
      'registration',
      'doc_id',
    ])
    .execute();
  await db.schema
    .createTable('xapi_activities')
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('xapi_activities_pk', ['context_id', 'id'])
    .execute();
  await db.schema
    .createTable('xapi_statement_agents')
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('agent_key', 'text', (c) => c.notNull())
    .addColumn('statement_id', 'text', (c) => c.notNull())
    .addColumn('direct', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('xapi_statement_agents_pk', ['context_id', 'agent_key', 'statement_id'])
    .execute();
  await db.schema
    .createTable('xapi_statement_activities')
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('activity_id', 'text', (c) => c.notNull())
    .addColumn('statement_id', 'text', (c) => c.notNull())
    .addColumn('direct', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('xapi_statement_activities_pk', ['context_id', 'activity_id', 'statement_id'])
    .execute();
  await db.schema
    .createTable('xapi_attachments')
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('sha2', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('xapi_attachments_pk', ['context_id', 'sha2'])
    .execute();
  await sql`insert into xapi_statement_agents (context_id, agent_key, statement_id, direct)
    select context_id, actor_key, id, 1 from xapi_statements where actor_key <> ''`.execute(db);
  await sql`insert into xapi_statement_activities (context_id, activity_id, statement_id, direct)
    select context_id, activity_id, id, 1 from xapi_statements where activity_id is not null`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('xapi_attachments').execute();
  await db.schema.dropTable('xapi_statement_activities').execute();
  await db.schema.dropTable('xapi_statement_agents').execute();
  await db.schema.dropTable('xapi_activities').execute();
  await db.schema.dropTable('xapi_documents').execute();

  await db.schema.alterTable('xapi_outbox').dropColumn('refused_at').execute();
  await db.schema.alterTable('xapi_statements').dropColumn('credential_key').execute();
  await db.schema.dropTable('xapi_clients').execute();
}
