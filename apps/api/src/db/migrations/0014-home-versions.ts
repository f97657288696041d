import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * Version stamps of what the home's reads show (decision 0015). Each API process keeps the
 * learner's last answers of those reads, and serves one again only while the stamps read from
 * the database in the same request are the ones it was built under. The stamps are kept by
 * triggers, so every writer is covered — the player, the progression rules, the importer (a
 * separate process), a hand-written SQL fix — without any of them knowing about the cache:
 * - `u:{userId}`: the learner's own rows — lessons, the progress columns of their pages,
 *   memberships.
 * - `content`: the tenant trees — courses and their nodes, types, categories, competencies,
 *   programs and their courses, classes and their programs, memberships (teachers are shown),
 *   and the displayed columns of users (a teacher's name). One stamp for every tenant: content
 *   changes on import, rarely, and one row keeps the triggers simple.
 *
 * On PostgreSQL the triggers are constraint triggers deferred to the commit: the stamp's row is
 * locked only while committing, after every other lock of the transaction, so two writers can
 * never wait on each other through it (an answer locks its page, the user and the lesson; a
 * progression write locks lessons; neither holds the stamp while waiting for the other).
 */
const CONTENT_TABLES = [
  'courses',
  'course_nodes',
  'course_types',
  'course_categories',
  'course_competencies',
  'programs',
  'program_courses',
  'classes',
  'class_programs',
  'class_steps',
  'class_users',
];
const USER_COLUMNS = 'firstname, lastname, username, email, avatar_id';
const PAGE_COLUMNS = 'state, progress, attempt, node_id, lesson_id';

interface Trigger {
  name: string;
  /** `insert`, `update`, `update of a, b`, `delete` */
  event: string;
  table: string;
  /** What to bump: the content stamp, the row's user, or the user of the page's lesson. */
  bump: 'content' | 'user' | 'page';
}

function triggers(): Trigger[] {
  const out: Trigger[] = [];
  const add = (table: string, bump: Trigger['bump'], events: string[]) =>
    events.forEach((event, i) => out.push({ name: `hv_${table}_${bump}_${i}`, table, bump, event }));
  for (const table of CONTENT_TABLES) add(table, 'content', ['insert', 'update', 'delete']);
  add('users', 'content', [`update of ${USER_COLUMNS}`, 'delete']);
  add('lessons', 'user', ['insert', 'update', 'delete']);
  add('class_users', 'user', ['insert', 'update', 'delete']);
  add('lesson_pages', 'page', ['insert', `update of ${PAGE_COLUMNS}`, 'delete']);
  return out;
}

const bumpSqlite = (key: string, where = '') =>
  `insert into home_versions (key, version) select ${key}, 1 ${where} on conflict (key) do update set version = version + 1;`;

function sqliteBody(t: Trigger): string {
  const row = t.event === 'delete' ? 'old' : 'new';
  if (t.bump === 'content') return bumpSqlite(`'content'`, 'where true');
  if (t.bump === 'user') return bumpSqlite(`'u:' || ${row}.user_id`, 'where true');
  return bumpSqlite(`'u:' || user_id`, `from lessons where id = ${row}.lesson_id`);
}

const PG_FUNCTIONS = {
  content: `insert into home_versions (key, version) values ('content', 1)
    on conflict (key) do update set version = home_versions.version + 1;`,
  user: `insert into home_versions (key, version)
    values ('u:' || (case when tg_op = 'DELETE' then old.user_id else new.user_id end), 1)
    on conflict (key) do update set version = home_versions.version + 1;`,
  page: `insert into home_versions (key, version)
    select 'u:' || user_id, 1 from lessons
    where id = (case when tg_op = 'DELETE' then old.lesson_id else new.lesson_id end)
    on conflict (key) do update set version = home_versions.version + 1;`,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('home_versions')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (pg) {
    for (const [name, body] of Object.entries(PG_FUNCTIONS)) {
      await sql
        .raw(
          `create or replace function home_bump_${name}() returns trigger language plpgsql as $$
           begin ${body} return null; end $$`,
        )
        .execute(db);
    }
  }
  for (const t of triggers()) {
    const statement = pg
      ? `create constraint trigger ${t.name} after ${t.event} on ${t.table}
         deferrable initially deferred for each row execute function home_bump_${t.bump}()`
      : `create trigger ${t.name} after ${t.event} on ${t.table} for each row begin ${sqliteBody(t)} end`;
    await sql.raw(statement).execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const t of triggers()) {
    await sql.raw(pg ? `drop trigger ${t.name} on ${t.table}` : `drop trigger ${t.name}`).execute(db);
  }
  if (pg) {
    for (const name of Object.keys(PG_FUNCTIONS))
      await sql.raw(`drop function home_bump_${name}()`).execute(db);
  }
  await db.schema.dropTable('home_versions').execute();
}
