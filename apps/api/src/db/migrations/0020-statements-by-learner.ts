import type { Kysely } from 'kysely';

/**
 * Issue 29 R3-05: a learner's statement query (`WHERE context_id = ? AND user_id = ? AND voided =
 * 0 ORDER BY stored, id`) read every statement of the tenant through `xapi_statements_stored_ix`
 * on SQLite; after one learner's flood, another's query took 1.1 s and held every request. This
 * index answers it by the learner, in its order, on both databases (`integrity.test.ts` reads the
 * plan).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('xapi_statements_user_ix')
    .on('xapi_statements')
    .columns(['context_id', 'user_id', 'stored', 'id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('xapi_statements_user_ix').execute();
}
