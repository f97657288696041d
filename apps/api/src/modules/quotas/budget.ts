import type { Db } from '../../db/db';
import type { Tx } from '../../db/tx';
import type { Quotas } from './config';
import { charge } from './usage';
import type { Charge, Period } from './usage';

/**
 * The one write budget (issue 36 item 1, decision 0055). Every row and byte a learner causes to
 * be stored is charged to that learner by the function that stores it, inside its own
 * transaction, through `spend` — never by the route that received it, so a new route onto an
 * existing store cannot skip it, and a new store has a road of its own here or fails the schema
 * test (`LEARNER_TABLES` below, apps/api/test/modules/quotas/budget-schema.test.ts).
 *
 * A road is one way a learner writes. Each road has the learner's own limits (a refusal: 429
 * with Retry-After for a rate, 413 for what is kept) and one tenant-wide figure that is an alarm
 * for the operator, never a refusal (issue 36 item 2: with refusals, 250 accounts at their own
 * limits stopped everybody else).
 */
export type Road = 'statements' | 'documents' | 'attachments' | 'uploads' | 'notes' | 'commits' | 'launches';

export interface Spend {
  contextId: string;
  /** The learner who caused the write: the only one it is charged to. */
  userId: string;
  road: Road;
  rows: number;
  bytes: number;
  /** Statements of a module launch also count against that launch's bytes. */
  launchKey?: string | undefined;
}

export const QUOTA_KEYS = {
  uploadBytesPerDay: 'quota.uploadBytesPerDay',
  uploadsPerDay: 'quota.uploadsPerDay',
  uploadStoredBytes: 'quota.uploadStoredBytes',
  statementsPerMinute: 'quota.statementsPerMinute',
  statementBytes: 'quota.statementBytes',
  notesPerDay: 'quota.notesPerDay',
  documentsPerMinute: 'quota.documentsPerMinute',
  moduleBytesPerDay: 'quota.moduleBytesPerDay',
  commitsPerMinute: 'quota.commitsPerMinute',
  launchesPerMinute: 'quota.launchesPerMinute',
  attachmentBytesPerDay: 'quota.attachmentBytesPerDay',
  registrationsPerCode: 'quota.registrationsPerCode',
  registrationsPerAddress: 'quota.registrationsPerAddress',
} as const;

const mine = (
  s: Spend,
  kind: string,
  period: Period,
  amount: number,
  limit: number,
  detail: string,
  subject = s.userId,
): Charge => ({ subject, kind, period, amount, limit, detail });

/** The learner's own limits of each road, in the order they are checked. */
function learnerCharges(q: Quotas, s: Spend): Charge[] {
  const K = QUOTA_KEYS;
  const learnerBytes = mine(
    s,
    'statement-bytes',
    'total',
    s.bytes,
    q.statementBytesPerLearner,
    K.statementBytes,
  );
  switch (s.road) {
    case 'statements':
      return [
        mine(s, 'statements', 'minute', s.rows, q.statementsPerMinute, K.statementsPerMinute),
        ...(s.launchKey
          ? [
              mine(
                s,
                'statement-bytes',
                'total',
                s.bytes,
                q.statementBytesPerLaunch,
                K.statementBytes,
                `launch:${s.launchKey}`,
              ),
            ]
          : []),
        learnerBytes,
      ];
    case 'attachments':
      // Parts are kept as long as their statements: they count with the statements' stored bytes.
      return [
        mine(s, 'attachment-bytes', 'day', s.bytes, q.attachmentBytesPerDay, K.attachmentBytesPerDay),
        learnerBytes,
      ];
    case 'documents':
      return [
        mine(s, 'documents', 'minute', s.rows, q.documentWritesPerMinute, K.documentsPerMinute),
        mine(s, 'module-bytes', 'day', s.bytes, q.moduleBytesPerDay, K.moduleBytesPerDay),
      ];
    case 'commits':
      return [
        mine(s, 'commits', 'minute', s.rows, q.commitsPerMinute, K.commitsPerMinute),
        mine(s, 'module-bytes', 'day', s.bytes, q.moduleBytesPerDay, K.moduleBytesPerDay),
      ];
    case 'uploads':
      return [
        mine(s, 'upload-bytes', 'day', s.bytes, q.uploadBytesPerDay, K.uploadBytesPerDay),
        mine(s, 'uploads', 'day', s.rows, q.uploadsPerDay, K.uploadsPerDay),
      ];
    case 'notes':
      return [mine(s, 'notes', 'day', s.rows, q.notesPerDay, K.notesPerDay)];
    case 'launches':
      return [mine(s, 'launches', 'minute', s.rows, q.launchesPerMinute, K.launchesPerMinute)];
  }
}

/** The tenant's figure of each road: what it counts, per which period, and when it alarms. */
export function tenantFigure(
  q: Quotas,
  road: Road,
): { kind: string; period: Period; unit: 'rows' | 'bytes'; alarm: number } {
  const n = q.tenantAlarmLearners;
  switch (road) {
    case 'statements':
      return { kind: 'statements', period: 'minute', unit: 'rows', alarm: q.tenantStatementsPerMinute };
    case 'uploads':
      return { kind: 'upload-bytes', period: 'day', unit: 'bytes', alarm: q.tenantUploadBytesPerDay };
    case 'notes':
      return { kind: 'notes', period: 'day', unit: 'rows', alarm: q.tenantNotesPerDay };
    case 'attachments':
      return { kind: 'attachment-bytes', period: 'day', unit: 'bytes', alarm: n * q.attachmentBytesPerDay };
    case 'documents':
      return { kind: 'document-bytes', period: 'day', unit: 'bytes', alarm: n * q.moduleBytesPerDay };
    case 'commits':
      return { kind: 'commits', period: 'minute', unit: 'rows', alarm: n * q.commitsPerMinute };
    case 'launches':
      return { kind: 'launches', period: 'minute', unit: 'rows', alarm: n * q.launchesPerMinute };
  }
}

/** Told when a tenant's figure is passed (once per period): the metric and the warn log. */
export type TenantAlarm = (a: { contextId: string; road: Road; amount: number; alarm: number }) => void;

export interface Budget {
  quotas: Quotas;
  alarm: TenantAlarm;
}
const budgets = new WeakMap<Db, Budget>();

/** The app's quotas and alarm for every store writing to `db` (modules/quotas/plugin.ts). */
export function registerBudget(db: Db, quotas: Quotas, alarm: TenantAlarm): void {
  budgets.set(db, { quotas, alarm });
}

/** The budget of `db`: a store with no budget registered is a programming error, never unbounded. */
export function budgetOf(db: Db): Budget {
  const b = budgets.get(db);
  if (!b) throw new Error('No write budget registered for this database (registerQuotas).');
  return b;
}

/**
 * Charges one write of `s.userId` in the caller's transaction: the learner's limits (a refusal
 * throws, and the caller's write rolls back with the charges made so far), then the tenant's
 * figure, counted without a limit, which only alarms.
 */
export async function spend(trx: Tx, b: Budget, s: Spend, now: Date): Promise<void> {
  if (s.rows <= 0 && s.bytes <= 0) return;
  await charge(trx, s.contextId, learnerCharges(b.quotas, s), now);
  const f = tenantFigure(b.quotas, s.road);
  const amount = f.unit === 'rows' ? s.rows : s.bytes;
  const [total] = await charge(
    trx,
    s.contextId,
    [{ subject: 'tenant', kind: f.kind, period: f.period, amount, limit: Infinity, detail: '' }],
    now,
  );
  // Once per period: when this write takes the tenant's figure past its alarm.
  if (total !== undefined && total >= f.alarm && total - amount < f.alarm)
    b.alarm({ contextId: s.contextId, road: s.road, amount: total, alarm: f.alarm });
}

/**
 * Self-registration (issue 36 item 2): accounts one invitation code and one client address open
 * per hour, counted in the registration's transaction like every quota (so across processes,
 * and only for accounts actually opened). 429 with Retry-After; the sign-up form shows the key.
 */
export function registrationCharges(q: Quotas, code: string, address: string): Charge[] {
  return [
    {
      subject: `code:${code}`,
      kind: 'registrations',
      period: 'hour',
      amount: 1,
      limit: q.registrationsPerCodePerHour,
      detail: QUOTA_KEYS.registrationsPerCode,
    },
    {
      subject: `address:${address}`,
      kind: 'registrations',
      period: 'hour',
      amount: 1,
      limit: q.registrationsPerAddressPerHour,
      detail: QUOTA_KEYS.registrationsPerAddress,
    },
  ];
}
