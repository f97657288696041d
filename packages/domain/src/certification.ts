import { CERTIFICATE_SCORE_SCALE } from './constants';
import type { LessonAttributes, PageProgress } from './entities';
import { lessonHasEnded, progressColor } from './progress';
import type { ProgressColor } from './progress';
export type { CertificationItemAttributes } from './contract/dashboard';

/**
 * Certification rules (docs/product.md §2 Certificates tab, §3 Certification item, §4 lesson ended and
 * certificate link, §9 score out of 1000, progress colour, certification type wording).
 * Shared by the API (which refuses a document the rules do not allow) and the web tab.
 */

export type CertificationWording = 'certification' | 'attestation';
export const CERTIFICATION_WORDINGS: readonly CertificationWording[] = ['certification', 'attestation'];

/** A course's own certification settings (`courses.settings.certification`), as authored. */
export interface CourseCertification {
  /** Share of the lesson's points needed to get the document, 0..1 (0: any ended lesson). */
  passingScore: number;
  wording: CertificationWording;
}

export interface LessonForCertificate {
  state: string;
  progress: PageProgress | string | null;
  certificationRef: string | null;
}

/** docs/product.md §4: SKIPPED or progress COMPLETED. */
export function lessonEnded(lesson: Pick<LessonForCertificate, 'state' | 'progress'>): boolean {
  // Stored rows carry plain strings; the rule only compares them with two literals.
  return lessonHasEnded(lesson as Pick<LessonAttributes, 'state' | 'progress'>);
}

/** docs/product.md §4: the certificate link is offered only for an ended lesson with a certification reference. */
export function certificateLinkAvailable(lesson: LessonForCertificate): boolean {
  return (
    lessonEnded(lesson) &&
    typeof lesson.certificationRef === 'string' &&
    lesson.certificationRef.trim() !== ''
  );
}

/** Float noise (0.57 * 1000 = 569.9999…) must not cost the learner a point. */
function snap(value: number): number {
  return Number(value.toFixed(9));
}

/** A 0..1 ratio clamped; NaN, infinities and missing values read as 0. */
export function clampRatio(ratio: number | null | undefined): number {
  if (ratio == null || !Number.isFinite(ratio)) return 0;
  return Math.min(1, Math.max(0, ratio));
}

/**
 * docs/product.md §9: the score shown out of 1000. Rounded **down** (after removing float noise), so the
 * number printed never exceeds what was earned and a score shown as 700 always passes a 0.7
 * threshold (with rounding to nearest, 0.6996 would print 700 and still fail).
 */
export function scoreOutOf1000(ratio: number | null | undefined): number {
  return Math.floor(snap(clampRatio(ratio) * CERTIFICATE_SCORE_SCALE));
}

/** docs/product.md §9: below 0.5 danger, below 1 primary, else success; `percent` is 0..100. */
export function progressionColor(percent: number | null | undefined): ProgressColor {
  return progressColor(percent == null || !Number.isFinite(percent) ? 0 : percent / 100);
}

/** The learner passes when the ratio reaches the passing score (equality passes). */
export function passesCertification(
  ratio: number | null | undefined,
  passingScore: number | null | undefined,
): boolean {
  const threshold = clampRatio(passingScore);
  return snap(clampRatio(ratio)) >= snap(threshold);
}

function isWording(value: unknown): value is CertificationWording {
  return value === 'certification' || value === 'attestation';
}

/**
 * The share of a lesson's points a certifying course asks for when it names none (issue 29
 * R3-13): a course certifying through its type alone used to pass at 0, so a lesson sent back
 * empty earned a certificate and a signed credential. docs/content-format.md says so.
 */
export const DEFAULT_PASSING_SCORE = 0.5;

/**
 * Reads `courses.settings.certification` leniently: a malformed value is treated as absent
 * rather than breaking the learner's tab. `passingScore` outside 0..1 is clamped; missing or not
 * a number, it is `DEFAULT_PASSING_SCORE`.
 */
export function courseCertificationOf(
  settings: unknown,
  fallbackWording: CertificationWording,
): CourseCertification | null {
  if (!settings || typeof settings !== 'object') return null;
  const c = (settings as { certification?: unknown }).certification;
  if (!c || typeof c !== 'object') return null;
  const { passingScore, wording } = c as { passingScore?: unknown; wording?: unknown };
  return {
    passingScore: typeof passingScore === 'number' ? clampRatio(passingScore) : DEFAULT_PASSING_SCORE,
    wording: isWording(wording) ? wording : fallbackWording,
  };
}

/**
 * Whether a course delivers a certificate: its own `certification` settings decide; without
 * them, the course type's `settings.certificate` flag does (the contract with the content format).
 */
export function courseIsCertifying(courseSettings: unknown, typeSettings: unknown): boolean {
  if (courseCertificationOf(courseSettings, 'certification')) return true;
  return (
    !!typeSettings &&
    typeof typeSettings === 'object' &&
    (typeSettings as { certificate?: unknown }).certificate === true
  );
}

/**
 * Wording of the document: the course's own choice, else the tenant's certification type
 * (docs/product.md §9: certification or attestation, default certification).
 */
export function certificationWording(
  course: CourseCertification | null,
  tenantType: unknown,
): CertificationWording {
  if (course) return course.wording;
  return isWording(tenantType) ? tenantType : 'certification';
}

export type CertificateRefusal = 'NOT_ENDED' | 'NO_REFERENCE' | 'BELOW_PASSING_SCORE';

/**
 * Why a document cannot be delivered for a lesson, or null when it can: ended, with a
 * reference, and at or above the course's passing score.
 */
export function certificateRefusal(
  lesson: LessonForCertificate,
  ratio: number,
  passingScore: number,
): CertificateRefusal | null {
  if (!lessonEnded(lesson)) return 'NOT_ENDED';
  if (!certificateLinkAvailable(lesson)) return 'NO_REFERENCE';
  if (!passesCertification(ratio, passingScore)) return 'BELOW_PASSING_SCORE';
  return null;
}
