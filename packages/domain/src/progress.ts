import type { LessonAttributes, LessonTreeNode, PageProgress, Scoring } from './entities';

type Score = Scoring['global'];

/** docs/product.md §4: a lesson has ended when it was skipped or its progress is COMPLETED. */
export function lessonHasEnded(lesson: Pick<LessonAttributes, 'state' | 'progress'>): boolean {
  return lesson.state === 'SKIPPED' || lesson.progress === 'COMPLETED';
}

/** docs/product.md §4: the certificate link shows only for an ended lesson that has a certification reference. */
export function certificateAvailable(
  lesson: Pick<LessonAttributes, 'state' | 'progress' | 'certificationRef'>,
): boolean {
  return (
    lessonHasEnded(lesson) &&
    typeof lesson.certificationRef === 'string' &&
    lesson.certificationRef.trim() !== ''
  );
}

function pageWeight(progress: PageProgress | null | undefined): number {
  if (progress === 'COMPLETED') return 1;
  if (progress === 'ONGOING') return 0.5;
  return 0;
}

/** Completed share of one tree node, 0..1: COMPLETED pages count 1, ONGOING ½. No pages → 0. */
export function nodeCompletedShare(pages: readonly { progress: PageProgress | null | undefined }[]): number {
  if (pages.length === 0) return 0;
  return pages.reduce((sum, page) => sum + pageWeight(page.progress), 0) / pages.length;
}

/**
 * docs/product.md §4 progression: mean over tree nodes of each node's completed share, as a rounded
 * percent. Shared by the API (LessonAttributes.percentProgression) and the web app.
 */
export function progressionPercent(tree: readonly Pick<LessonTreeNode, 'pages'>[]): number {
  if (tree.length === 0) return 0;
  const mean = tree.reduce((sum, node) => sum + nodeCompletedShare(node.pages), 0) / tree.length;
  // Strip float noise first so an exact half (e.g. 62.5) is not seen as 62.4999… and rounded down.
  return Math.round(Number((mean * 100).toFixed(9)));
}

/** actual/max clamped to 0..1; 0 when max is not positive or either value is not a finite number. */
export function scoreRatio({ actual, max }: Score): number {
  if (!Number.isFinite(max) || !Number.isFinite(actual) || max <= 0) return 0;
  return Math.min(1, Math.max(0, actual / max));
}

/** floor(100·actual/max), or null when it must not be shown (max not positive, non-finite values). */
export function scorePercent({ actual, max }: Score): number | null {
  if (!Number.isFinite(max) || !Number.isFinite(actual) || max <= 0) return null;
  // 100 * 0.57 is 56.99999999999999 in floating point; snap before flooring.
  return Math.floor(Number(((100 * actual) / max).toFixed(9)));
}

export type ProgressColor = 'danger' | 'primary' | 'success';

/** docs/product.md §9: below 0.5 danger, below 1 primary, otherwise success. A missing ratio reads as 0. */
export function progressColor(ratio: number | null | undefined): ProgressColor {
  const value = ratio == null || Number.isNaN(ratio) ? 0 : ratio;
  if (value < 0.5) return 'danger';
  if (value < 1) return 'primary';
  return 'success';
}
