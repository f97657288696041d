import type { Kysely } from 'kysely';

/**
 * Sessions ended one at a time (issue 36, decision 0057): a sign-out ends the token of that
 * device and every renewal of it, and nothing else. A row per ended session, keyed by the
 * tokens' session id (`sid`, random: it names no one), kept until the session could not have
 * lived longer anyway (`expires_at`: its sign-in plus SESSION_MAX_HOURS), then swept.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ended_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
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
