import type { Env } from '../../env';

/**
 * Issue 29 item 1: how much one learner, one module launch and one tenant may write. The
 * defaults are far above what a real classroom does (a learner attaching a few photos to a few
 * notes a day, a module sending tens of statements) and far below what a script does (R3-01:
 * 3–5 GB of uploads a minute; R3-02: 300–600 MB of statements a minute; R3-12: 18 000 notes a
 * minute). Each is set in env.ts and documented in the README's configuration table.
 */
export interface Quotas {
  /** Bytes a learner uploads per UTC day (429 past it). */
  uploadBytesPerDay: number;
  /** Bytes of uploads a learner keeps stored (413 past it). */
  uploadStoredBytes: number;
  /** Bytes a tenant's users upload per UTC day together: an alarm, not a refusal (decision 0055). */
  tenantUploadBytesPerDay: number;
  /** Statements a learner's launches store per minute (429). */
  statementsPerMinute: number;
  /** Statements a tenant's learners store per minute together: an alarm (decision 0055). */
  tenantStatementsPerMinute: number;
  /** Bytes of statements one launch stores (413). */
  statementBytesPerLaunch: number;
  /** Bytes of statements a learner stores in all (413). */
  statementBytesPerLearner: number;
  /** Log-book notes a user writes per UTC day (429). */
  notesPerDay: number;
  /** Notes a tenant's users write per UTC day together: an alarm (decision 0055). */
  tenantNotesPerDay: number;
  /** Uploads a learner makes per UTC day, whatever their size (429; issue 36). */
  uploadsPerDay: number;
  /** State and agent profile documents a learner writes per minute (429; issue 36). */
  documentWritesPerMinute: number;
  /** SCORM commits a learner's launches send per minute (429; issue 36). */
  commitsPerMinute: number;
  /** Module and package launches (credentials, launch rows) a learner opens per minute (429). */
  launchesPerMinute: number;
  /** Bytes of module data (State, profiles, SCORM runtime data) a learner writes per UTC day (429). */
  moduleBytesPerDay: number;
  /** Bytes of statement attachment parts a learner stores per UTC day (429; issue 36). */
  attachmentBytesPerDay: number;
  /**
   * The tenant's figure of the roads without one of their own: this many learners at their
   * limit. Passing a tenant's figure alarms the operator, never refuses (decision 0055).
   */
  tenantAlarmLearners: number;
  /** Accounts one invitation code opens per hour (429; issue 36). */
  registrationsPerCodePerHour: number;
  /** Accounts one client address opens per hour (429; issue 36). */
  registrationsPerAddressPerHour: number;
  /** An upload attached to no note is removed once this old (ms). */
  orphanGraceMs: number;
}

const MiB = 1024 * 1024;

export function quotasFrom(env: Env): Quotas {
  return {
    uploadBytesPerDay: Math.floor(env.QUOTA_UPLOAD_MB_PER_DAY * MiB),
    uploadStoredBytes: Math.floor(env.QUOTA_UPLOAD_STORED_MB * MiB),
    tenantUploadBytesPerDay: Math.floor(env.QUOTA_TENANT_UPLOAD_MB_PER_DAY * MiB),
    statementsPerMinute: env.QUOTA_STATEMENTS_PER_MINUTE,
    tenantStatementsPerMinute: env.QUOTA_TENANT_STATEMENTS_PER_MINUTE,
    statementBytesPerLaunch: Math.floor(env.QUOTA_STATEMENT_MB_PER_LAUNCH * MiB),
    statementBytesPerLearner: Math.floor(env.QUOTA_STATEMENT_MB_PER_LEARNER * MiB),
    notesPerDay: env.QUOTA_NOTES_PER_DAY,
    tenantNotesPerDay: env.QUOTA_TENANT_NOTES_PER_DAY,
    uploadsPerDay: env.QUOTA_UPLOADS_PER_DAY,
    documentWritesPerMinute: env.QUOTA_DOCUMENT_WRITES_PER_MINUTE,
    commitsPerMinute: env.QUOTA_COMMITS_PER_MINUTE,
    launchesPerMinute: env.QUOTA_LAUNCHES_PER_MINUTE,
    moduleBytesPerDay: Math.floor(env.QUOTA_MODULE_DATA_MB_PER_DAY * MiB),
    attachmentBytesPerDay: Math.floor(env.QUOTA_ATTACHMENT_MB_PER_DAY * MiB),
    tenantAlarmLearners: env.QUOTA_TENANT_ALARM_LEARNERS,
    registrationsPerCodePerHour: env.REGISTRATIONS_PER_CODE_PER_HOUR,
    registrationsPerAddressPerHour: env.REGISTRATIONS_PER_ADDRESS_PER_HOUR,
    orphanGraceMs: env.ORPHAN_UPLOAD_GRACE_HOURS * 60 * 60 * 1000,
  };
}
