export type Medal = 'bronze' | 'silver' | 'gold';
export type MedalColor = 'danger' | 'warning' | 'success';

/** docs/product.md §4 / §9 medal thresholds: below the first bronze, below the second silver, else gold. */
export const MEDAL_THRESHOLDS = { silver: 0.5, gold: 0.75 } as const;

function usable(ratio: number | null | undefined): ratio is number {
  return typeof ratio === 'number' && !Number.isNaN(ratio);
}

/** Medal earned for a 0..1 ratio; none for zero, negative, missing or NaN ratios. */
export function medalOf(ratio: number | null | undefined): Medal | null {
  if (!usable(ratio) || ratio <= 0) return null;
  if (ratio < MEDAL_THRESHOLDS.silver) return 'bronze';
  if (ratio < MEDAL_THRESHOLDS.gold) return 'silver';
  return 'gold';
}

/** Colour of a medal ratio; a missing ratio reads as 0 so it shows as danger. */
export function medalColor(ratio: number | null | undefined): MedalColor {
  const value = usable(ratio) ? ratio : 0;
  if (value < MEDAL_THRESHOLDS.silver) return 'danger';
  if (value < MEDAL_THRESHOLDS.gold) return 'warning';
  return 'success';
}
