import type { Quotas } from './config';
import type { Charge } from './usage';

/**
 * What each kind of write counts against (issue 29 item 1). The learner's own limit first, then
 * the tenant's: a refusal names the learner's limit when both are reached.
 */
export const QUOTA_KEYS = {
  uploadBytesPerDay: 'quota.uploadBytesPerDay',
  uploadStoredBytes: 'quota.uploadStoredBytes',
  statementsPerMinute: 'quota.statementsPerMinute',
  statementBytes: 'quota.statementBytes',
  notesPerDay: 'quota.notesPerDay',
  tenant: 'quota.tenant',
} as const;

export function uploadCharges(q: Quotas, userId: string, bytes: number): Charge[] {
  return [
    {
      subject: userId,
      kind: 'upload-bytes',
      period: 'day',
      amount: bytes,
      limit: q.uploadBytesPerDay,
      detail: QUOTA_KEYS.uploadBytesPerDay,
    },
    {
      subject: 'tenant',
      kind: 'upload-bytes',
      period: 'day',
      amount: bytes,
      limit: q.tenantUploadBytesPerDay,
      detail: QUOTA_KEYS.tenant,
    },
  ];
}

export function statementCharges(
  q: Quotas,
  userId: string,
  launchKey: string,
  count: number,
  bytes: number,
): Charge[] {
  return [
    {
      subject: userId,
      kind: 'statements',
      period: 'minute',
      amount: count,
      limit: q.statementsPerMinute,
      detail: QUOTA_KEYS.statementsPerMinute,
    },
    {
      subject: `launch:${launchKey}`,
      kind: 'statement-bytes',
      period: 'total',
      amount: bytes,
      limit: q.statementBytesPerLaunch,
      detail: QUOTA_KEYS.statementBytes,
    },
    {
      subject: userId,
      kind: 'statement-bytes',
      period: 'total',
      amount: bytes,
      limit: q.statementBytesPerLearner,
      detail: QUOTA_KEYS.statementBytes,
    },
    {
      subject: 'tenant',
      kind: 'statements',
      period: 'minute',
      amount: count,
      limit: q.tenantStatementsPerMinute,
      detail: QUOTA_KEYS.tenant,
    },
  ];
}

export function noteCharges(q: Quotas, userId: string): Charge[] {
  return [
    {
      subject: userId,
      kind: 'notes',
      period: 'day',
      amount: 1,
      limit: q.notesPerDay,
      detail: QUOTA_KEYS.notesPerDay,
    },
    {
      subject: 'tenant',
      kind: 'notes',
      period: 'day',
      amount: 1,
      limit: q.tenantNotesPerDay,
      detail: QUOTA_KEYS.tenant,
    },
  ];
}
