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
  /** Bytes a tenant's users upload per UTC day together (429). */
  tenantUploadBytesPerDay: number;
  /** Statements a learner's launches store per minute (429). */
  statementsPerMinute: number;
  /** Statements a tenant's learners store per minute together (429). */
  tenantStatementsPerMinute: number;
  /** Bytes of statements one launch stores (413). */
  statementBytesPerLaunch: number;
  /** Bytes of statements a learner stores in all (413). */
  statementBytesPerLearner: number;
  /** Log-book notes a user writes per UTC day (429). */
  notesPerDay: number;
  /** Notes a tenant's users write per UTC day together (429). */
  tenantNotesPerDay: number;
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
    orphanGraceMs: env.ORPHAN_UPLOAD_GRACE_HOURS * 60 * 60 * 1000,
  };
}
