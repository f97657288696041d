import type { Kysely } from 'kysely';

/**
 * E-learning packages (issue 31, decision 0048).
 *
 * `package_launches`: one launch of a package page by its learner. The bridge on the packages
 * origin speaks for it with `key` and a secret (kept as its SHA-256, given once in the launch
 * URL's fragment). `last_sequence` makes SCORM commits idempotent (a commit is applied once, in
 * order); `time_base` is the page's time spent when the launch began, so a SCO's session_time
 * adds only what the player's clock did not already count. cmi5: `registration` and
 * `session_id` of the AU session, `fetch_hash` the one-time fetch URL's token, `xapi_key` the LRS
 * credentials it gave; `terminated_at` (the AU's terminated statement, or the SCO's
 * LMSFinish/Terminate), `finished_at` (the player closed it), `abandoned_at` (a later launch
 * found it open, cmi5 §9.3.6). `statements`: how many the launch stored (the bridge's progress).
 *
 * `package_runtime`: a SCORM page's `cmi` data as the SCO last committed it, per learner, page
 * and attempt (a retried page is a new lesson_pages row), with the session times added up.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('package_launches')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('lesson_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('package_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('app_origin', 'text', (c) => c.notNull())
    .addColumn('registration', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('fetch_hash', 'text')
    .addColumn('fetched_at', 'text')
    .addColumn('xapi_key', 'text')
    .addColumn('time_base', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('statements', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('terminated_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('abandoned_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('package_launches_page_ix').on('package_launches').column('page_id').execute();
  await db.schema.createIndex('package_launches_xapi_ix').on('package_launches').column('xapi_key').execute();
  await db.schema
    .createIndex('package_launches_fetch_ix')
    .on('package_launches')
    .column('fetch_hash')
    .execute();
  await db.schema
    .createTable('package_runtime')
    .addColumn('page_id', 'text', (c) => c.primaryKey())
    .addColumn('context_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('lesson_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('cmi', 'text', (c) => c.notNull())
    .addColumn('total_seconds', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('launch_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('package_runtime_user_ix').on('package_runtime').column('user_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('package_runtime').execute();
  await db.schema.dropTable('package_launches').execute();
}
