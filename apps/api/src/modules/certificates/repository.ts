import type { Selectable } from 'kysely';
import type { Db } from '../../db/db';
import type { CertificatesTable } from '../../db/schema';
import { parseJson } from '../../db/schema';
import type { Viewer } from '../scope';
import { countRows } from '../scope';

/**
 * Reads of the certificates module. Every query is narrowed by tenant and learner in SQL and
 * touches only the learner's certifying lessons (an index on lessons (user_id, context_id, …)
 * serves them), never the learner's whole history.
 */

export interface CertifyingCourse {
  id: string;
  settings: unknown;
  typeSettings: unknown;
}

/** Courses the learner has a lesson of, with what decides whether they certify. */
export async function coursesOfLearner(db: Db, v: Viewer, userId: string): Promise<CertifyingCourse[]> {
  const rows = await db
    .selectFrom('courses as co')
    .leftJoin('courseTypes as ct', 'ct.id', 'co.typeId')
    .select(['co.id', 'co.settings', 'ct.settings as typeSettings'])
    .where('co.contextId', '=', v.contextId)
    .where(
      'co.id',
      'in',
      db
        .selectFrom('lessons as l')
        .select('l.courseId')
        .where('l.userId', '=', userId)
        .where('l.contextId', '=', v.contextId),
    )
    .execute();
  return rows.map((r) => ({
    id: r.id,
    settings: parseJson<unknown>(r.settings, {}),
    typeSettings: parseJson<unknown>(r.typeSettings, {}),
  }));
}

export interface ItemRow {
  id: string;
  userId: string;
  state: string;
  progress: string | null;
  certificationRef: string | null;
  scoring: string;
  endedAt: string | null;
  startedAt: string | null;
  enabledSectionIds: string;
  courseId: string;
  courseTitle: string;
  courseReference: string | null;
  courseSettings: string;
  typeSettings: string | null;
  classId: string;
  className: string;
  classStartAt: string | null;
  classExpireAt: string | null;
  classProgramId: string | null;
  cpStartAt: string | null;
  cpExpireAt: string | null;
}

function itemQuery(db: Db, v: Viewer, userId: string) {
  return db
    .selectFrom('lessons as l')
    .innerJoin('courses as co', 'co.id', 'l.courseId')
    .leftJoin('courseTypes as ct', 'ct.id', 'co.typeId')
    .innerJoin('classes as c', 'c.id', 'l.classId')
    .leftJoin('classPrograms as cp', 'cp.id', 'l.classProgramId')
    .where('l.contextId', '=', v.contextId)
    .where('l.userId', '=', userId);
}

const ITEM_COLUMNS = [
  'l.id',
  'l.userId',
  'l.state',
  'l.progress',
  'l.certificationRef',
  'l.scoring',
  'l.endedAt',
  'l.startedAt',
  'l.enabledSectionIds',
  'co.id as courseId',
  'co.title as courseTitle',
  'co.reference as courseReference',
  'co.settings as courseSettings',
  'ct.settings as typeSettings',
  'c.id as classId',
  'c.name as className',
  'c.startAt as classStartAt',
  'c.expireAt as classExpireAt',
  'l.classProgramId',
  'cp.startAt as cpStartAt',
  'cp.expireAt as cpExpireAt',
] as const;

/**
 * The learner's certification items: lessons of certifying courses, plus any lesson that
 * already carries a reference. Ended ones first (newest end first), then by start.
 */
export async function listItems(
  db: Db,
  v: Viewer,
  userId: string,
  certifyingCourseIds: string[],
  page: { size: number; offset: number },
): Promise<{ rows: ItemRow[]; total: number }> {
  const qb = itemQuery(db, v, userId).where((eb) =>
    certifyingCourseIds.length
      ? eb.or([eb('l.certificationRef', 'is not', null), eb('l.courseId', 'in', certifyingCourseIds)])
      : eb('l.certificationRef', 'is not', null),
  );
  const total = await countRows(qb);
  const rows = await qb
    .select([...ITEM_COLUMNS])
    .orderBy('l.endedAt', (ob) => ob.desc().nullsLast())
    .orderBy('l.startedAt', (ob) => ob.desc().nullsLast())
    .orderBy('l.id')
    .limit(page.size)
    .offset(page.offset)
    .execute();
  return { rows, total };
}

/** One lesson of the learner (owner only: another learner's lesson reads as missing). */
export async function findOwnItem(db: Db, v: Viewer, lessonId: string): Promise<ItemRow | undefined> {
  return itemQuery(db, v, v.userId)
    .where('l.id', '=', lessonId)
    .select([...ITEM_COLUMNS])
    .executeTakeFirst();
}

export type CertificateRow = Selectable<CertificatesTable>;

/** What the document shows, kept as issued so the verification page tells the same thing. */
export interface CertificateSnapshot {
  tenantName: string;
  learnerName: string;
  courseTitle: string;
  score: number;
  endedAt: string;
  reference: string;
  wording: 'certification' | 'attestation';
}

export function snapshotOf(row: CertificateRow): CertificateSnapshot {
  return parseJson<CertificateSnapshot>(row.snapshot, {} as CertificateSnapshot);
}

/** The certificate of this completion of the lesson, if it was awarded. */
export async function findAwarded(db: Db, lessonId: string, issuedFor: string) {
  return db
    .selectFrom('certificates')
    .selectAll()
    .where('lessonId', '=', lessonId)
    .where('issuedFor', '=', issuedFor)
    .executeTakeFirst();
}

/**
 * Stores an awarded certificate with its signed credential, in one statement: all of it or
 * nothing. Nothing is stored when the completion already has its certificate (a concurrent award:
 * the unique (lesson, completion) index) or, rarely, when another certificate of the tenant drew
 * the same status list index (the tenant's unique index): the caller reads back which.
 */
export async function insertAwarded(
  db: Db,
  values: Omit<CertificateRow, 'revokedAt'> & {
    statusIndex: number;
    credentialJwt: string;
    credentialLd: string;
  },
): Promise<void> {
  await db
    .insertInto('certificates')
    .values({ ...values, revokedAt: null })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Certificate by public id within the tenant, with the lesson's current reference and end. */
export async function findCertificate(db: Db, contextId: string, id: string) {
  return db
    .selectFrom('certificates as ce')
    .leftJoin('lessons as l', 'l.id', 'ce.lessonId')
    .selectAll('ce')
    .select(['l.certificationRef as lessonRef', 'l.endedAt as lessonEndedAt'])
    .where('ce.contextId', '=', contextId)
    .where('ce.id', '=', id)
    .executeTakeFirst();
}

/** Public ids already delivered for these lessons' current completions (for the items list). */
export async function certificateIdsOf(
  db: Db,
  lessonIds: string[],
): Promise<Map<string, { id: string; issuedFor: string }[]>> {
  const out = new Map<string, { id: string; issuedFor: string }[]>();
  if (lessonIds.length === 0) return out;
  const rows = await db
    .selectFrom('certificates')
    .select(['id', 'lessonId', 'issuedFor'])
    .where('lessonId', 'in', lessonIds)
    .where('revokedAt', 'is', null)
    .execute();
  for (const r of rows)
    out.set(r.lessonId, [...(out.get(r.lessonId) ?? []), { id: r.id, issuedFor: r.issuedFor }]);
  return out;
}
