/** docs/product.md §3 "Rating display", §9: three stars in half-star steps. */

export const RATING_STARS = 3;

export type StarFill = 'full' | 'half' | 'empty';

/** The score in stars: fraction × 6 rounded down to the half star, within 0..3. */
export function ratingScore(fraction: number | null | undefined): number {
  if (typeof fraction !== 'number' || !Number.isFinite(fraction)) return 0;
  // fraction × 6 counts half stars; snap float noise (0.7 × 6 = 4.199999…) before flooring.
  const halves = Math.floor(Number((fraction * RATING_STARS * 2).toFixed(9)));
  return Math.min(RATING_STARS * 2, Math.max(0, halves)) / 2;
}

/** How each of the three stars is filled for a 0..1 fraction. */
export function ratingStars(fraction: number | null | undefined): StarFill[] {
  const score = ratingScore(fraction);
  return Array.from({ length: RATING_STARS }, (_, i) => {
    if (score >= i + 1) return 'full';
    if (score >= i + 0.5) return 'half';
    return 'empty';
  });
}

/** The tooltip's percent, one decimal (0.7333 → 73.3); clamped to 0..100. */
export function ratingPercent(fraction: number | null | undefined): number {
  if (typeof fraction !== 'number' || !Number.isFinite(fraction)) return 0;
  const clamped = Math.min(1, Math.max(0, fraction));
  return Math.round(Number((clamped * 1000).toFixed(9))) / 10;
}
