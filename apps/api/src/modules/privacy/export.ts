import type { Db } from '../../db/db';

/**
 * A learner's data as one JSON document (issue 29 item 9; GDPR articles 15 and 20: access and
 * portability). Everything the tenant holds about the learner, as stored — profile, enrolments,
 * lessons with their scores, every page with its answers and results, notes written by or about
 * them, uploads, certificates, learning records — with JSON columns read as JSON. Left out: what
 * is a secret rather than data about the learner (the password hash, a page's launch token).
 */
export const EXPORT_FORMAT = 'parcours-learner-data/1';

/** JSON text columns as values; everything else unchanged. */
function readable<T extends Record<string, unknown>>(row: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === 'string' && /^[[{]/.test(value)) {
      try {
        out[key] = JSON.parse(value) as unknown;
        continue;
      } catch {
        // Text that only looks like JSON stays text.
      }
    }
    out[key] = value;
  }
  return out;
}

export async function learnerExport(db: Db, contextId: string, userId: string, now: Date) {
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .where('contextId', '=', contextId)
    .executeTakeFirstOrThrow();
  const { passwordHash: _secret, ...profile } = user;
  const lessons = await db
    .selectFrom('lessons as l')
    .innerJoin('courses as c', 'c.id', 'l.courseId')
    .selectAll('l')
    .select('c.title as courseTitle')
    .where('l.userId', '=', userId)
    .where('l.contextId', '=', contextId)
    .orderBy('l.createdAt')
    .execute();
  const lessonIds = lessons.map((l) => l.id);
  const pages = lessonIds.length
    ? await db
        .selectFrom('lessonPages')
        .selectAll()
        .where('lessonId', 'in', lessonIds)
        .orderBy('lessonId')
        .orderBy('createdAt')
        .execute()
    : [];
  const [enrolments, companies, notes, uploads, certificates, reviews, records, statements, packageProgress] =
    await Promise.all([
      db
        .selectFrom('classUsers as cu')
        .innerJoin('classes as k', 'k.id', 'cu.classId')
        .select(['cu.classId', 'k.name as className', 'cu.role', 'cu.createdAt'])
        .where('cu.userId', '=', userId)
        .where('k.contextId', '=', contextId)
        .execute(),
      db
        .selectFrom('companyUsers as cu')
        .innerJoin('companies as co', 'co.id', 'cu.companyId')
        .select(['cu.companyId', 'co.name as companyName', 'cu.role'])
        .where('cu.userId', '=', userId)
        .where('co.contextId', '=', contextId)
        .execute(),
      db
        .selectFrom('logBookRecords')
        .selectAll()
        .where('contextId', '=', contextId)
        .where((eb) => eb.or([eb('studentId', '=', userId), eb('userId', '=', userId)]))
        .orderBy('createdAt')
        .execute(),
      db
        .selectFrom('files')
        .select(['id', 'name', 'type', 'fileType', 'size', 'sha256', 'createdAt'])
        .where('contextId', '=', contextId)
        .where('ownerId', '=', userId)
        .execute(),
      db
        .selectFrom('certificates')
        .selectAll()
        .where('contextId', '=', contextId)
        .where('userId', '=', userId)
        .execute(),
      db
        .selectFrom('reviews')
        .selectAll()
        .where('contextId', '=', contextId)
        .where('userId', '=', userId)
        .execute(),
      db
        .selectFrom('records')
        .selectAll()
        .where('contextId', '=', contextId)
        .where('userId', '=', userId)
        .execute(),
      db
        .selectFrom('xapiStatements')
        .select('body')
        .where('contextId', '=', contextId)
        .where('userId', '=', userId)
        .orderBy('stored')
        .execute(),
      // A package page's saved SCORM data (issue 31).
      db
        .selectFrom('packageRuntime')
        .select(['pageId', 'lessonId', 'attempt', 'kind', 'cmi', 'totalSeconds', 'createdAt', 'updatedAt'])
        .where('contextId', '=', contextId)
        .where('userId', '=', userId)
        .orderBy('createdAt')
        .execute(),
    ]);
  return {
    format: EXPORT_FORMAT,
    exportedAt: now.toISOString(),
    profile: readable(profile),
    enrolments,
    companies,
    lessons: lessons.map(readable),
    // A page not answered yet shows its own inputs only (what the player shows before an answer).
    pages: pages.map(({ launchToken: _token, results, ...p }) =>
      readable(p.answeredAt === null ? p : { ...p, results }),
    ),
    notes: notes.map(readable),
    uploads: uploads.map((f) => ({ ...f, download: `/api/files/${encodeURIComponent(f.id)}/download` })),
    certificates: certificates.map(readable),
    reviews: reviews.map(readable),
    records: records.map(readable),
    statements: statements.map((s) => JSON.parse(s.body) as unknown),
    packageProgress: packageProgress.map(readable),
  };
}
