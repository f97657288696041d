import type { Kysely } from 'kysely';

/**
 * Time accommodation (RGAA 13.1, decision 0019), per enrolment:
 * - `class_users.time_factor`: multiplies every page and lesson time limit of the learner in
 *   this class; null means ×1. Double precision so ×1.15 reads back as 1.15 on PostgreSQL too.
 * - `class_users.no_time_limit`: 1 when the learner has no limit at all in this class.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('class_users').addColumn('time_factor', 'double precision').execute();
  await db.schema
    .alterTable('class_users')
    .addColumn('no_time_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('class_users').dropColumn('no_time_limit').execute();
  await db.schema.alterTable('class_users').dropColumn('time_factor').execute();
}
