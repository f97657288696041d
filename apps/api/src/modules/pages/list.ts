import type { Db } from '../../db/db';
import type { JsonApiQuery, Resource } from '../../plugins/jsonapi';
import { offsetOf } from '../../plugins/jsonapi';
import type { Viewer } from '../scope';
import { countRows, withSort } from '../scope';

/**
 * docs/product.md §7 `GET pages`: the pages of lessons, as a summary (where, state, progress, time and
 * score) — never the learner's answers, the results or any expected answer, which only the
 * player's own calls give. A learner sees the pages of their own lessons; a teacher those of the
 * lessons of the classes they teach (to follow and correct); an administrator the tenant's.
 * Archived attempts are left out unless asked for (docs/product.md §3: ARCHIVED excluded on load).
 */
interface PageSummaryRow {
  id: string;
  lessonId: string;
  nodeId: string;
  sectionId: string | null;
  attempt: number;
  state: string;
  progress: string | null;
  timeSpent: number;
  timeAlive: number;
  timeLimit: number | null;
  scoreActual: number;
  scoreMax: number;
  answeredAt: string | null;
  createdAt: string;
}

function visibleLessonIds(db: Db, v: Viewer) {
  const q = db.selectFrom('lessons as vl').select('vl.id').where('vl.contextId', '=', v.contextId);
  if (v.isAdmin) return q;
  return q.where((eb) =>
    eb.or([
      eb('vl.userId', '=', v.userId),
      eb(
        'vl.classId',
        'in',
        db
          .selectFrom('classUsers as tcu')
          .select('tcu.classId')
          .where('tcu.userId', '=', v.userId)
          .where('tcu.role', '=', 'TEACHER'),
      ),
    ]),
  );
}

export async function listPages(
  db: Db,
  v: Viewer,
  q: JsonApiQuery,
): Promise<{ rows: PageSummaryRow[]; total: number }> {
  let qb = db.selectFrom('lessonPages as p').where('p.lessonId', 'in', visibleLessonIds(db, v));
  if (q.filters.lessonId) qb = qb.where('p.lessonId', 'in', q.filters.lessonId);
  if (q.filters.id) qb = qb.where('p.id', 'in', q.filters.id);
  if (q.filters.nodeId) qb = qb.where('p.nodeId', 'in', q.filters.nodeId);
  const states = q.filters.state ?? ['ACTIVE'];
  qb = qb.where('p.state', 'in', states);
  const total = await countRows(qb);
  const rows = await withSort(
    qb.select([
      'p.id',
      'p.lessonId',
      'p.nodeId',
      'p.sectionId',
      'p.attempt',
      'p.state',
      'p.progress',
      'p.timeSpent',
      'p.timeAlive',
      'p.timeLimit',
      'p.scoreActual',
      'p.scoreMax',
      'p.answeredAt',
      'p.createdAt',
    ]),
    q.sort,
    { position: 'p.position', createdAt: 'p.createdAt', answeredAt: 'p.answeredAt' },
    [{ field: 'position', desc: false }],
    'p.id',
  )
    .limit(q.page.size)
    .offset(offsetOf(q.page))
    .execute();
  return { rows, total };
}

const SUMMARY_COLUMNS = [
  'id',
  'lessonId',
  'nodeId',
  'sectionId',
  'attempt',
  'state',
  'progress',
  'timeSpent',
  'timeAlive',
  'timeLimit',
  'scoreActual',
  'scoreMax',
  'answeredAt',
  'createdAt',
] as const;

/**
 * `include=pages` on lessons (docs/product.md §7 "populate … pages not ARCHIVED"): the summaries of the
 * lessons' active pages, in reading order. The parents are lessons the viewer may read already.
 */
export async function activePagesOfLessons(
  db: Db,
  lessonIds: string[],
): Promise<{ parentId: string; resource: Resource }[]> {
  if (lessonIds.length === 0) return [];
  const rows = await db
    .selectFrom('lessonPages')
    .select(SUMMARY_COLUMNS)
    .where('lessonId', 'in', lessonIds)
    .where('state', '=', 'ACTIVE')
    .orderBy('lessonId')
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ parentId: row.lessonId, resource: toPageSummary(row) }));
}

export function toPageSummary(row: PageSummaryRow): Resource {
  return {
    type: 'pages',
    id: row.id,
    attributes: {
      lessonId: row.lessonId,
      nodeId: row.nodeId,
      sectionId: row.sectionId,
      attempt: row.attempt,
      state: row.state,
      progress: row.progress,
      timeSpent: row.timeSpent,
      timeAlive: row.timeAlive,
      timeLimit: row.timeLimit,
      score: { actual: row.scoreActual, max: row.scoreMax },
      answeredAt: row.answeredAt,
      createdAt: row.createdAt,
    },
    relationships: { lesson: { data: { type: 'lessons', id: row.lessonId } } },
  };
}
