import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * Answering in one statement on PostgreSQL too (decision 0025; SQLite since 0016). The fast path
 * of an answer that does not end its lesson is the page's conditional UPDATE alone, also
 * conditional on the lesson's number of completed pages being the one the request read. On SQLite
 * (one writer) a subquery checks that. On PostgreSQL (READ COMMITTED, several writers) a subquery
 * would read the statement's snapshot, blind to a page of the lesson committed meanwhile, so the
 * check is this VOLATILE function, called in the UPDATE's WHERE: it locks the page, the learner and
 * the lesson — the order the answer trigger of 0013 and the full path take them, so no new lock
 * cycle — and then counts in a new statement, whose new snapshot sees every page of the lesson
 * committed before the lock was granted. Any other answer of the lesson takes the lesson's lock
 * before its page can count as completed (the trigger does), so nothing can complete between this
 * count and the commit. If the count differs, the UPDATE writes nothing and the code takes the
 * full path. SQLite: nothing to create.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql
    .raw(
      `create function lesson_completed_count_is(p_page text, p_lesson text, p_seen bigint)
      returns boolean language plpgsql volatile as $$
      declare
        n bigint;
      begin
        perform 1 from lesson_pages where id = p_page for update;
        perform 1 from users where id = (select user_id from lessons where id = p_lesson) for update;
        perform 1 from lessons where id = p_lesson for update;
        select count(*) into n from lesson_pages
        where lesson_id = p_lesson and state <> 'ARCHIVED' and progress = 'COMPLETED';
        return n = p_seen;
      end
      $$`,
    )
    .execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql.raw('drop function if exists lesson_completed_count_is(text, text, bigint)').execute(db);
}
