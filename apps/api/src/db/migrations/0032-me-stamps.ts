import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';
import { dropUserStampTriggers, userStampTriggers } from './0028-viewer-notify';

/**
 * `GET /api/users/me` served from the answer cache (issue 38, lib/answer-cache.ts): what it shows
 * beyond the viewer's row and roles (already stamped by 0028) is their companies, so those move
 * stamps too: a membership moves `u:{userId}` of its member, and a company's own row (its name,
 * its tenant) moves `content`, like the other tenant trees of 0014 (companies change on import,
 * rarely). On PostgreSQL the content trigger is deferred like 0014's and named `hv_…_content_…`.
 */
const EVENTS = ['insert', 'update', 'delete'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const content = EVENTS.map((event, i) =>
    pg
      ? `create constraint trigger hv_companies_content_${i} after ${event} on companies
         deferrable initially deferred for each row execute function home_bump_content()`
      : `create trigger hv_companies_content_${i} after ${event} on companies for each row begin
         insert into home_versions (key, version) select 'content', 1 where true
         on conflict (key) do update set version = version + 1; end`,
  );
  for (const statement of [...content, ...userStampTriggers(pg, 'company_users', 'user_id')]) {
    await sql.raw(statement).execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const content = EVENTS.map((_, i) =>
    pg ? `drop trigger hv_companies_content_${i} on companies` : `drop trigger hv_companies_content_${i}`,
  );
  for (const statement of [...content, ...dropUserStampTriggers(pg, 'company_users')]) {
    await sql.raw(statement).execute(db);
  }
}
