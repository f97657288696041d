import type { Kysely } from 'kysely';

/**
 * The LRS's document resources and activities (issue 28, decision 0040).
 * - `xapi_documents`: State, Activity Profile and Agent Profile documents (`kind`), keyed by
 *   what each resource names them by; a part a resource does not use is ''. `content` is the
 *   body in base64 (documents may be any media type), `etag` its quoted SHA-1.
 * - `xapi_activities`: the definition of each activity seen in a statement, merged (names and
 *   descriptions in every language sent), for the Activities resource.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
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
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('xapi_activities').execute();
  await db.schema.dropTable('xapi_documents').execute();
}
