import { ACCOUNT, TRACES } from './register-account';
import { LEARNING_RECORDS } from './register-records';
import type { RegisterEntry } from './register-types';
import { contentTables } from '../../db/content-tables';

export type { EraseRun, ExportRun, RegisterEntry } from './register-types';
export { attachmentHashes, statementIdsOf } from './register-records';

/**
 * The register of a learner's data (issue 36 item 3, decision 0056): every table that names a
 * learner, listed once, with how her rows are found, what the export shows of them (or why it
 * leaves them out) and what an erasure does to them (delete, anonymise, or keep, with the
 * reason). `learnerExport` and `eraseLearner` both walk it; nothing else lists these tables.
 * Erasure runs the entries in this order inside one transaction, with her statements' ids and
 * attachment hashes read before anything goes (the index that finds them is deleted too); the
 * one order that matters: statements before the attachment parts only they referred to.
 *
 * The test (privacy/register.test.ts) reads the live schema of SQLite and PostgreSQL and fails
 * when a table with a column that can name a person (`NAMES_A_PERSON`) is in neither this
 * register nor `NOT_ABOUT_A_LEARNER`, and when any table at all is left unclassified.
 */

/**
 * The rule for "a column can name a person" (decision 0056), on column names: an id of a user
 * under any of the names the schema gives one (`user_id`, `*_user_id`, `owner_id`, `student_id`,
 * `principal_id`, `author_id`, `learner_id`, `created_by`, `updated_by`, `subject`), what
 * identifies or describes a person (`email`, `username`, `firstname`, `lastname`, `birthday`,
 * `mbox`), and xAPI agents (`agent`, `actor`, `agent_key`, `actor_key`). Tables that name her
 * under a generic column (login_attempts.key, home_versions.key) or only through another table
 * (lesson_pages, xapi_outbox, the statement index, attachment parts) are listed by hand; the
 * test's second check — every table classified — keeps those in view.
 */
export const NAMES_A_PERSON =
  /^(?:.*_)?(?:user_id|owner_id|student_id|principal_id|author_id|learner_id|created_by|updated_by|subject|email|username|firstname|lastname|birthday|mbox|agent|actor|agent_key|actor_key)$/;

/** In erasure order: the account's entries, the learning records, then the traces. */
export const REGISTER: RegisterEntry[] = [...ACCOUNT, ...LEARNING_RECORDS, ...TRACES];

/** Outside the database: what names her and how erasure treats it. */
export const OUTSIDE_THE_DATABASE = [
  { store: 'files folder or S3 bucket', erase: 'the bytes of her uploads, after the commit (files entry)' },
  {
    store: 'DATA_DIR/outbox (mail written as .eml without SMTP)',
    erase:
      'every mail that names her e-mail address; left out of the export: mail she was sent, with its links',
  },
];

/** Tables that name no learner, each with the reason. */
export const NOT_ABOUT_A_LEARNER: Record<string, string> = {
  contexts: 'tenants',
  context_hostnames: 'tenant host names',
  roles: 'role names',
  companies: 'organisations',
  ...contentTables('content'),
  classes: 'classes, named by the tenant',
  class_programs: 'content scheduled for a class',
  class_steps: 'content scheduled for a class',
  invitation_codes: 'codes and the classes they admit; uses are a count',
  installation_secrets: 'secrets of the installation',
  signing_keys: "the tenant's certificate signing keys",
  xapi_activities: 'activity definitions, merged from every statement: about content, not a person',
};

/** Tables the rule says may name a person, in neither list: what the register test fails on. */
export function unlisted(live: { table: string; columns: string[] }[]): string[] {
  const listed = new Set([...REGISTER.map((e) => e.table), ...Object.keys(NOT_ABOUT_A_LEARNER)]);
  return live
    .filter((t) => t.columns.some((c) => NAMES_A_PERSON.test(c)) && !listed.has(t.table))
    .map((t) => t.table);
}
