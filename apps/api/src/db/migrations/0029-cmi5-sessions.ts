import type { Kysely } from 'kysely';

/**
 * cmi5 as ADL's LMS test suite checks it (issue 39 item 1, decision 0062): a launch plays one AU
 * of a course (`au_index`, its place in cmi5.xml, multi-AU courses), in a launch mode (`Normal`,
 * `Browse`, `Review`), and keeps what its session said so far (`session_state`, JSON: initialized,
 * the learner preferences read, completed, passed, failed), so that the LMS refuses a statement
 * out of the order cmi5 §9.3 sets before it is stored.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('package_launches')
    .addColumn('au_index', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('package_launches')
    .addColumn('launch_mode', 'text', (c) => c.notNull().defaultTo('Normal'))
    .execute();
  await db.schema.alterTable('package_launches').addColumn('session_state', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ['session_state', 'launch_mode', 'au_index'])
    await db.schema.alterTable('package_launches').dropColumn(c).execute();
}
