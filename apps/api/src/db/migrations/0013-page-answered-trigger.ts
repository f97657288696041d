import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * Answering in five statements (decision 0016). When a page becomes answered (`answered_at`
 * goes from null to a time — only the conditional UPDATE that grades a page does that), the
 * database itself, inside that same statement:
 * - credits the learner: XP += what the grade improves on the best earlier attempt of the page
 *   (never negative, rounded to 2 decimals), one more done page on a first attempt;
 * - re-sums the lesson's score over its non-archived answered pages, marks it ONGOING and
 *   started, and stamps its `updated_at`.
 * What was three statements after the page's UPDATE is now part of it, so an answer's write is
 * one statement: atomic by itself, it needs no savepoint in SQLite's group commit. Whether the
 * lesson is complete (and what follows: state DONE, the program's rules) stays in the code, which
 * knows the lesson's plan (lesson-pages/record.ts).
 *
 * PostgreSQL: the same in a PL/pgSQL function. The lesson row is locked first (an UPDATE of
 * `updated_at`), so the sum that follows — a new statement, hence a new snapshot under READ
 * COMMITTED — sees every page of the lesson committed before it, as the code did before.
 */
const XP_GAIN_SQLITE = `max(0, round(new.score_actual - case when new.attempt > 1 then (
    select coalesce(max(o.score_actual), 0) from lesson_pages o
    where o.lesson_id = new.lesson_id and o.node_id = new.node_id and o.id <> new.id
  ) else 0 end, 2))`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (!pg) {
    await sql
      .raw(
        `create trigger lesson_page_answered after update of answered_at on lesson_pages
        for each row when old.answered_at is null and new.answered_at is not null
        begin
          update users set
            scoring = json_set(coalesce(nullif(scoring, ''), '{}'), '$.xp',
              round(coalesce(json_extract(nullif(scoring, ''), '$.xp'), 0) + ${XP_GAIN_SQLITE}, 2)),
            done_page_count = done_page_count + (new.attempt = 1),
            updated_at = new.updated_at
          where id = (select user_id from lessons where id = new.lesson_id)
            and (new.attempt = 1 or ${XP_GAIN_SQLITE} > 0);
          update lessons set
            scoring = (
              select json_object('global', json_object(
                'actual', round(coalesce(sum(p.score_actual), 0), 2),
                'max', round(coalesce(sum(p.score_max), 0), 2)))
              from lesson_pages p
              where p.lesson_id = new.lesson_id and p.state <> 'ARCHIVED' and p.answered_at is not null
            ),
            progress = 'ONGOING',
            started_at = coalesce(started_at, new.answered_at),
            updated_at = new.updated_at
          where id = new.lesson_id;
        end`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `create function lesson_page_answered() returns trigger language plpgsql as $$
      declare
        earlier double precision := 0;
        gain numeric;
      begin
        if new.attempt > 1 then
          select coalesce(max(o.score_actual), 0) into earlier from lesson_pages o
          where o.lesson_id = new.lesson_id and o.node_id = new.node_id and o.id <> new.id;
        end if;
        gain := greatest(0, round((new.score_actual - earlier)::numeric, 2));
        update users set
          scoring = jsonb_set(coalesce(nullif(scoring, ''), '{}')::jsonb, '{xp}',
            to_jsonb(round((coalesce((nullif(scoring, '')::jsonb ->> 'xp')::numeric, 0) + gain)::numeric, 2)::double precision))::text,
          done_page_count = done_page_count + (case when new.attempt = 1 then 1 else 0 end),
          updated_at = new.updated_at
        where id = (select user_id from lessons where id = new.lesson_id)
          and (new.attempt = 1 or gain > 0);
        -- Locks the lesson: the sum below is a new snapshot taken after the lock.
        update lessons set updated_at = new.updated_at where id = new.lesson_id;
        update lessons set
          scoring = (
            select jsonb_build_object('global', jsonb_build_object(
              'actual', round(coalesce(sum(p.score_actual), 0)::numeric, 2)::double precision,
              'max', round(coalesce(sum(p.score_max), 0)::numeric, 2)::double precision))::text
            from lesson_pages p
            where p.lesson_id = new.lesson_id and p.state <> 'ARCHIVED' and p.answered_at is not null
          ),
          progress = 'ONGOING',
          started_at = coalesce(started_at, new.answered_at)
        where id = new.lesson_id;
        return null;
      end
      $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger lesson_page_answered after update of answered_at on lesson_pages
      for each row when (old.answered_at is null and new.answered_at is not null)
      execute function lesson_page_answered()`,
    )
    .execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql.raw('drop trigger if exists lesson_page_answered' + (pg ? ' on lesson_pages' : '')).execute(db);
  if (pg) await sql.raw('drop function if exists lesson_page_answered()').execute(db);
}
