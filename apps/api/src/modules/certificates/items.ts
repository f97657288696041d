import { effectiveWindow } from '@parcours/domain/class-timing';
import {
  DEFAULT_PASSING_SCORE,
  certificateRefusal,
  certificationWording,
  courseCertificationOf,
  courseIsCertifying,
  lessonEnded,
  scoreOutOf1000,
} from '@parcours/domain/certification';
import type { CertificationItemAttributes, CertificationWording } from '@parcours/domain/certification';
import { progressionPercent, scoreRatio } from '@parcours/domain/progress';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import type { Resource } from '../../plugins/jsonapi';
import { activePagesOfLessons, structureOfCourses } from '../lessons/repository';
import { buildTree, latestProgressByNode } from '../lessons/serializer';
import { jsonStrings } from '../programs/serializer';
import type { Viewer } from '../scope';
import { groupBy } from '../scope';
import type { ItemRow } from './repository';
import { coursesOfLearner, listItems } from './repository';

/** What the rules make of one certifying lesson. */
export interface Evaluated {
  row: ItemRow;
  ratio: number;
  score: number;
  passingScore: number;
  wording: CertificationWording;
  ended: boolean;
  /** Null when a document may be delivered. */
  refusal: ReturnType<typeof certificateRefusal>;
}

export function evaluate(row: ItemRow, tenantType: unknown): Evaluated {
  const courseSettings = parseJson<unknown>(row.courseSettings, {});
  const own = courseCertificationOf(courseSettings, certificationWording(null, tenantType));
  const scoring = parseJson<{ global?: { actual?: unknown; max?: unknown } }>(row.scoring, {});
  const ratio = scoreRatio({
    actual: Number(scoring.global?.actual ?? 0),
    max: Number(scoring.global?.max ?? 0),
  });
  // Certifying through its type alone: the documented default, never 0 (R3-13).
  const passingScore = own?.passingScore ?? DEFAULT_PASSING_SCORE;
  return {
    row,
    ratio,
    score: scoreOutOf1000(ratio),
    passingScore,
    wording: certificationWording(own, tenantType),
    ended: lessonEnded(row),
    refusal: certificateRefusal(row, ratio, passingScore),
  };
}

/** Percent progression of each lesson, by the same tree rule as GET /lessons (docs/product.md §4). */
async function progressionOf(db: Db, rows: ItemRow[]): Promise<Map<string, number>> {
  const nodes = await structureOfCourses(db, [...new Set(rows.map((r) => r.courseId))]);
  const pages = groupBy(
    await activePagesOfLessons(
      db,
      rows.map((r) => r.id),
    ),
    (p) => p.lessonId,
  );
  const byCourse = groupBy(nodes, (n) => n.courseId);
  return new Map(
    rows.map((r) => [
      r.id,
      progressionPercent(
        buildTree(
          byCourse.get(r.courseId) ?? [],
          latestProgressByNode(pages.get(r.id) ?? []),
          jsonStrings(r.enabledSectionIds),
        ),
      ),
    ]),
  );
}

// Shared with the web's certificates tab (docs/architecture.md §2: types of both sides live in the domain).
export type { CertificationItemAttributes } from '@parcours/domain/certification';

export function toItemResource(e: Evaluated, percent: number): Resource {
  const r = e.row;
  const window = effectiveWindow(
    { startAt: r.classStartAt, expireAt: r.classExpireAt },
    { startAt: r.cpStartAt, expireAt: r.cpExpireAt },
  );
  const available = e.refusal === null;
  const attributes: CertificationItemAttributes = {
    lessonId: r.id,
    course: { id: r.courseId, title: r.courseTitle, reference: r.courseReference },
    class: { id: r.classId, name: r.className },
    classProgram: { id: r.classProgramId, startAt: window.startAt, expireAt: window.expireAt },
    scoreRatio: e.ratio,
    score: e.score,
    passingScore: e.passingScore,
    percentProgression: percent,
    ended: e.ended,
    endedAt: r.endedAt,
    certificationRef: r.certificationRef,
    wording: e.wording,
    certificateUrl: available ? `/api/lessons/${encodeURIComponent(r.id)}/certificate.pdf` : null,
    credentialUrl: available ? `/api/lessons/${encodeURIComponent(r.id)}/credential` : null,
  };
  return {
    type: 'certification-items',
    id: r.id,
    attributes: { ...attributes },
    relationships: { lesson: { data: { type: 'lessons', id: r.id } } },
  };
}

/** The learner's certification items, one page of them. */
export async function certificationItems(
  db: Db,
  v: Viewer,
  tenantType: unknown,
  page: { size: number; offset: number },
): Promise<{ data: Resource[]; total: number }> {
  const courses = await coursesOfLearner(db, v, v.userId);
  const certifying = courses.filter((c) => courseIsCertifying(c.settings, c.typeSettings)).map((c) => c.id);
  const { rows, total } = await listItems(db, v, v.userId, certifying, page);
  const percents = await progressionOf(db, rows);
  return { data: rows.map((r) => toItemResource(evaluate(r, tenantType), percents.get(r.id) ?? 0)), total };
}
