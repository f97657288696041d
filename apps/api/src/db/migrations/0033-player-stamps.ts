import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * The player's two reads served from the answer cache (decision 0068, issue 37 item 3): what they
 * show moves a stamp, whoever writes it.
 *
 * 1. Every update of a learner's `lesson_pages` row moves their `u:{userId}` (0014 moved it only
 *    on state, progress, attempt, node and lesson). `GET …/pages/current` shows nearly every
 *    column — hints used, the clock's start, the answer and its results, the sheet, the launch,
 *    the time spent and alive — and the columns it does not show (`last_seen_at`, `opened_at`,
 *    `updated_at`) are written only beside ones it shows (a keep-alive adds to `time_spent`), so
 *    a column list would spare nothing and miss the next column added. Same trigger name and
 *    body as 0014's (`home_bump_page()` on PostgreSQL, deferred to the commit).
 * 2. A tenant's content media (`files` rows without an owner, which the importer writes and which
 *    nodes and blocks name) move `content` when one is added, removed, or changes a column
 *    `GET /pages/{id}/resources` shows (id, tenant, name, type, kind, size) or its owner. A
 *    learner's upload (an owner) is named by log-book records only, never by content: its rows
 *    move nothing, so an upload does not empty every process's content caches.
 *
 * On PostgreSQL the triggers are constraint triggers deferred to the commit like 0014's, named
 * `hv_…_content_…` / `hv_…_page_…` as theirs; each stamp's move is announced by 0028's trigger on
 * `home_versions` (NOTIFY on PostgreSQL, `seq` on SQLite) with nothing more to do here.
 */
const FILE_COLUMNS = 'id, context_id, owner_id, name, type, file_type, size';

const SQLITE_PAGE_BODY = `insert into home_versions (key, version) select 'u:' || user_id, 1 from lessons
  where id = new.lesson_id on conflict (key) do update set version = version + 1;`;
const SQLITE_CONTENT_BODY = `insert into home_versions (key, version) select 'content', 1 where true
  on conflict (key) do update set version = version + 1;`;

/** The files triggers: [event, condition on the row]. */
const FILE_TRIGGERS: [string, string][] = [
  ['insert', 'new.owner_id is null'],
  [`update of ${FILE_COLUMNS}`, 'old.owner_id is null or new.owner_id is null'],
  ['delete', 'old.owner_id is null'],
];

function upStatements(pg: boolean): string[] {
  const page = pg
    ? `create constraint trigger hv_lesson_pages_page_1 after update on lesson_pages
       deferrable initially deferred for each row execute function home_bump_page()`
    : `create trigger hv_lesson_pages_page_1 after update on lesson_pages for each row
       begin ${SQLITE_PAGE_BODY} end`;
  const files = FILE_TRIGGERS.map(([event, when], i) =>
    pg
      ? `create constraint trigger hv_files_content_${i} after ${event} on files
         deferrable initially deferred for each row when (${when}) execute function home_bump_content()`
      : `create trigger hv_files_content_${i} after ${event} on files for each row when ${when}
         begin ${SQLITE_CONTENT_BODY} end`,
  );
  return [dropPageTrigger(pg), page, ...files];
}

const dropPageTrigger = (pg: boolean) =>
  pg ? 'drop trigger hv_lesson_pages_page_1 on lesson_pages' : 'drop trigger hv_lesson_pages_page_1';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of upStatements(pg)) await sql.raw(statement).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  // 0014's trigger again: only the columns the home's reads showed.
  const columns = 'state, progress, attempt, node_id, lesson_id';
  const statements = [
    ...FILE_TRIGGERS.map((_, i) =>
      pg ? `drop trigger hv_files_content_${i} on files` : `drop trigger hv_files_content_${i}`,
    ),
    dropPageTrigger(pg),
    pg
      ? `create constraint trigger hv_lesson_pages_page_1 after update of ${columns} on lesson_pages
         deferrable initially deferred for each row execute function home_bump_page()`
      : `create trigger hv_lesson_pages_page_1 after update of ${columns} on lesson_pages for each row
         begin ${SQLITE_PAGE_BODY} end`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
