import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * Honest scores (issue 10, decision 0009).
 * - `lesson_pages.choice_of`: on the page of a multiblock's child, the multiblock's node id. One
 *   active page per lesson and multiblock (partial unique index): one choice per multiblock is
 *   decided by the database, as one grade per page is, across tabs and server processes.
 *   Existing pages are filled in; where a lesson already holds two chosen children (the loophole
 *   this closes), the first one keeps the choice and the others stay outside the index.
 * - `lesson_pages.launch_token`: the launch the server issued for a learning-module page; its
 *   score is accepted only with it, once.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('lesson_pages').addColumn('choice_of', 'text').execute();
  await db.schema.alterTable('lesson_pages').addColumn('launch_token', 'text').execute();
  await sql`
    update lesson_pages set choice_of = (
      select n.parent_id from course_nodes n join course_nodes m on m.id = n.parent_id
      where n.id = lesson_pages.node_id and m.type = 'multiblock'
    )
    where state <> 'ARCHIVED'`.execute(db);
  // The earliest chosen child is never cleared, so the result does not depend on row order.
  await sql`
    update lesson_pages set choice_of = null
    where choice_of is not null and exists (
      select 1 from lesson_pages o
      where o.lesson_id = lesson_pages.lesson_id and o.choice_of = lesson_pages.choice_of and o.state <> 'ARCHIVED'
        and (o.created_at < lesson_pages.created_at or (o.created_at = lesson_pages.created_at and o.id < lesson_pages.id))
    )`.execute(db);
  await sql`create unique index lesson_pages_choice_uq on lesson_pages (lesson_id, choice_of) where state <> 'ARCHIVED' and choice_of is not null`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('lesson_pages_choice_uq').execute();
  await db.schema.alterTable('lesson_pages').dropColumn('launch_token').execute();
  await db.schema.alterTable('lesson_pages').dropColumn('choice_of').execute();
}
