import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * The viewer and the home's stamps kept in each process (decision 0059, issue 38).
 *
 * 1. What authentication reads moves a stamp too: any change of a user's row (password,
 *    revocation `tokens_valid_after`, erasure, names, XP…) and of their roles (`role_users`)
 *    moves `u:{userId}`, the stamp of 0014 that the learner's lessons, pages and memberships
 *    already move; a change of `roles` itself moves `viewers` (every cached viewer is dropped).
 *    On PostgreSQL these are deferred constraint triggers like 0014's, named `hv_…_user_…` so
 *    that they fire after a `hv_…_content_…` trigger of the same event (one order of the stamp
 *    rows' locks at commit).
 * 2. Every move of a stamp is announced. PostgreSQL: a trigger on `home_versions` itself sends
 *    `pg_notify('parcours_cache_' || tg_table_schema, key || ' ' || version)`, delivered to every
 *    listening process at the commit, in commit order (lib/viewer-copy.ts listens). SQLite: a
 *    column `seq` numbers the moves in commit order (one writer at a time), so the one process
 *    finds what moved since it last looked (`seq > ?`) when `total_changes()` or
 *    `data_version` say something was written.
 *
 * A new source of revocation keyed by user (a sessions table, say) is seen by every process's
 * copy once its table moves `u:{userId}`: `userStampTriggers(table, column)` below gives the
 * statements for either database, to run in that table's migration.
 */
export const CACHE_CHANNEL_PREFIX = 'parcours_cache_';

/** Statements that make every insert, update or delete of `table` move `u:{row[column]}`. */
export function userStampTriggers(pg: boolean, table: string, column: string): string[] {
  const events = ['insert', 'update', 'delete'];
  if (pg) {
    return events.map(
      (event, i) => `create constraint trigger hv_${table}_user_${i} after ${event} on ${table}
        deferrable initially deferred for each row execute function home_bump_user_of('${column}')`,
    );
  }
  const bump = (row: string) => `insert into home_versions (key, version) select 'u:' || ${row}.${column}, 1
    where ${row}.${column} is not null on conflict (key) do update set version = version + 1;`;
  return [
    `create trigger hv_${table}_user_0 after insert on ${table} for each row begin ${bump('new')} end`,
    // An update moving the row to another user moves both (the second bump of one key is harmless).
    `create trigger hv_${table}_user_1 after update on ${table} for each row begin ${bump('old')} ${bump('new')} end`,
    `create trigger hv_${table}_user_2 after delete on ${table} for each row begin ${bump('old')} end`,
  ];
}

export const dropUserStampTriggers = (pg: boolean, table: string) =>
  [0, 1, 2].map((i) =>
    pg ? `drop trigger hv_${table}_user_${i} on ${table}` : `drop trigger hv_${table}_user_${i}`,
  );

const PG_UP = [
  // The user whose stamp moves is named by a column given as the trigger's argument, read through
  // jsonb so that one function serves every table (users by `id`, role_users by `principal_id`).
  `create or replace function home_bump_user_of() returns trigger language plpgsql as $$
   declare
     was text := case when tg_op = 'INSERT' then null else to_jsonb(old) ->> tg_argv[0] end;
     now_ text := case when tg_op = 'DELETE' then null else to_jsonb(new) ->> tg_argv[0] end;
   begin
     if now_ is not null then
       insert into home_versions (key, version) values ('u:' || now_, 1)
       on conflict (key) do update set version = home_versions.version + 1;
     end if;
     if was is not null and was is distinct from now_ then
       insert into home_versions (key, version) values ('u:' || was, 1)
       on conflict (key) do update set version = home_versions.version + 1;
     end if;
     return null;
   end $$`,
  `create or replace function home_bump_viewers() returns trigger language plpgsql as $$
   begin
     insert into home_versions (key, version) values ('viewers', 1)
     on conflict (key) do update set version = home_versions.version + 1;
     return null;
   end $$`,
  // Not deferred: it runs when a stamp's row is written, itself at the commit (0014's triggers);
  // NOTIFY is delivered only if and when the transaction commits. The channel is named after the
  // table's own schema, whatever the writer's search_path (a hand-written fix in psql included).
  `create or replace function home_versions_notify() returns trigger language plpgsql as $$
   begin
     perform pg_notify('${CACHE_CHANNEL_PREFIX}' || tg_table_schema, new.key || ' ' || new.version);
     return null;
   end $$`,
  `create trigger home_versions_notify after insert or update on home_versions
   for each row execute function home_versions_notify()`,
  ...['insert', 'update', 'delete'].map(
    (event, i) => `create constraint trigger hv_roles_viewers_${i} after ${event} on roles
      deferrable initially deferred for each row execute function home_bump_viewers()`,
  ),
];

const SQLITE_SEQ = `update home_versions set seq = (select coalesce(max(seq), 0) + 1 from home_versions)
  where key = new.key;`;
const SQLITE_UP = [
  'alter table home_versions add column seq integer',
  'create index home_versions_seq on home_versions (seq)',
  `create trigger home_versions_seq_0 after insert on home_versions for each row begin ${SQLITE_SEQ} end`,
  `create trigger home_versions_seq_1 after update of version on home_versions for each row begin ${SQLITE_SEQ} end`,
  ...['insert', 'update', 'delete'].map(
    (event, i) => `create trigger hv_roles_viewers_${i} after ${event} on roles for each row begin
      insert into home_versions (key, version) values ('viewers', 1)
      on conflict (key) do update set version = version + 1; end`,
  ),
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const statements = [
    ...(pg ? PG_UP : SQLITE_UP),
    ...userStampTriggers(pg, 'users', 'id'),
    ...userStampTriggers(pg, 'role_users', 'principal_id'),
    // A sign-out (0026, decision 0057) revokes one session's tokens: seen like any revocation.
    ...userStampTriggers(pg, 'ended_sessions', 'user_id'),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const statements = [
    ...dropUserStampTriggers(pg, 'users'),
    ...dropUserStampTriggers(pg, 'role_users'),
    ...dropUserStampTriggers(pg, 'ended_sessions'),
    ...[0, 1, 2].map((i) =>
      pg ? `drop trigger hv_roles_viewers_${i} on roles` : `drop trigger hv_roles_viewers_${i}`,
    ),
    ...(pg
      ? [
          'drop trigger home_versions_notify on home_versions',
          'drop function home_versions_notify()',
          'drop function home_bump_viewers()',
          'drop function home_bump_user_of()',
        ]
      : [
          'drop trigger home_versions_seq_0',
          'drop trigger home_versions_seq_1',
          'drop index home_versions_seq',
          'alter table home_versions drop column seq',
        ]),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
