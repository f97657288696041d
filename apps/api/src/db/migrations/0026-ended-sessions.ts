import type { Kysely } from 'kysely';

/**
 * Sessions ended one at a time (issue 36, decision 0057): a sign-out ends the token of that
 * device and every renewal of it, and nothing else. A row per ended session, keyed by the
 * tokens' session id (`sid`, random), with its user, whose viewer the server keeps in memory and
 * reads again when a sign-out moves the user's stamp (decision 0059, migration 0028); kept until
 * the session could not have lived longer anyway (`expires_at`: its sign-in plus
 * SESSION_MAX_HOURS), then swept.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ended_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  // Read with the viewer (users/repository.ts), and erased with the learner (privacy/register.ts).
  await db.schema.createIndex('ended_sessions_user_id').on('ended_sessions').column('user_id').execute();
  await db.schema
    .createIndex('ended_sessions_expires_at')
    .on('ended_sessions')
    .column('expires_at')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ended_sessions').execute();
}
