import type { Road } from './budget';
import { contentTables } from '../../db/content-tables';

/**
 * Every table of the schema, classified once (issue 36 item 1). `budget-schema.test.ts` reads
 * the live schema of both databases and fails when a table is missing here, so a new table
 * that stores what a learner causes cannot go uncharged unnoticed.
 *
 * - `CHARGED`: rows a learner causes, charged to that learner by the store that writes them
 *   (`spend`, budget.ts), on the road named.
 * - `BOUNDED`: rows a learner causes but whose number is bounded by construction (the content,
 *   one per user, another rate limit); the bound is the reason.
 * - `NOT_LEARNER`: rows no learner causes (content, staff, the installation).
 */
export const CHARGED: Record<string, Road> = {
  xapi_statements: 'statements',
  // Index rows, activity definitions and forwarding copies of statements: charged with them.
  xapi_statement_agents: 'statements',
  xapi_statement_activities: 'statements',
  xapi_activities: 'statements',
  xapi_outbox: 'statements',
  xapi_documents: 'documents',
  xapi_attachments: 'attachments',
  files: 'uploads',
  log_book_records: 'notes',
  package_runtime: 'commits',
  package_launches: 'launches',
  xapi_credentials: 'launches',
};

export const BOUNDED: Record<string, string> = {
  lessons: 'one per course of the learner’s classes, made by enrolment, not by a request of hers',
  lesson_pages: 'one per node of a lesson and attempt; attempts are bounded by the content’s rules',
  reviews: 'one evaluation per completed program (a second is 409)',
  certificates: 'one per completed lesson',
  records: 'one per learner per day (the day’s scoring, upserted)',
  users: 'self-registration is rate-limited per code and per address (budget.ts registrationCharges)',
  class_users: 'enrolments made with an account: bounded as accounts are',
  home_versions: 'one per user',
  quota_usage: 'the counters themselves: one per learner, road and period, purged by the janitor',
  login_attempts: 'sign-in and reset attempts, rate-limited per key and address, purged by age',
  password_resets: 'rate-limited per address and e-mail (login_attempts), expire within the hour',
  ended_sessions:
    'one per signed-out session (its id is the key), sessions begin at a rate-limited sign-in; a row goes when the session would have ended (decision 0057)',
};

export const NOT_LEARNER: Record<string, string> = {
  contexts: 'tenants, made by the operator',
  context_hostnames: 'tenants’ host names, by the operator',
  libraries: 'content libraries, by the content import',
  roles: 'system roles',
  role_users: 'staff roles, given by administrators',
  companies: 'organisation, by administrators',
  company_users: 'organisation, by administrators',
  ...contentTables('content'),
  classes: 'organisation, by administrators',
  class_programs: 'organisation, by administrators',
  class_steps: 'organisation, by administrators',
  invitation_codes: 'made by administrators',
  installation_secrets: 'the installation’s own secrets',
  signing_keys: 'the installation’s certificate keys',
  xapi_clients: 'LRS clients, made by administrators',
  kysely_migration: 'the migrations run',
  kysely_migration_lock: 'the migrations’ lock',
};
