/**
 * Badge kinds (docs/product.md §3 "Badge display", §7 static badge pictures, §9 medal thresholds), as a
 * registry like the exercise types: each kind names its levels, and the rule that turns a 0..1
 * ratio into one of them. The web app draws and rasterises one picture per kind, level and size
 * from these lists, so a new kind or level is one entry here.
 */
import { medalOf, type Medal } from './medal';

export type BadgeLevelName = 'none' | Medal | 'xp' | 'certification' | 'attestation';

export interface BadgeKind {
  /** Levels a picture exists for, lowest first. */
  levels: readonly BadgeLevelName[];
  /** The level a 0..1 ratio earns (none at zero for medal kinds). */
  levelOf: (ratio: number | null | undefined) => BadgeLevelName;
}

const MEDAL_ORDER: readonly Medal[] = ['bronze', 'silver', 'gold'];

/** docs/product.md §4 medal by ratio, no higher than `top` (docs/product.md §9: gold for level badges, silver for themes). */
export function cappedMedal(ratio: number | null | undefined, top: Medal): Medal | null {
  const medal = medalOf(ratio);
  if (!medal) return null;
  return MEDAL_ORDER.indexOf(medal) > MEDAL_ORDER.indexOf(top) ? top : medal;
}

export const BADGE_KINDS = {
  /** A competency's level (dashboard Levels tab). */
  level: {
    levels: ['none', 'bronze', 'silver', 'gold'],
    levelOf: (ratio) => cappedMedal(ratio, 'gold') ?? 'none',
  },
  /** A course category, the learner's "job" (dashboard Jobs tab). */
  theme: {
    levels: ['none', 'bronze', 'silver'],
    levelOf: (ratio) => cappedMedal(ratio, 'silver') ?? 'none',
  },
  /** The learner's points (XP); the xl size carries a progress ring. */
  PI: {
    levels: ['xp'],
    levelOf: () => 'xp',
  },
  /** A certifying lesson's document, in the tenant's wording. */
  certification: {
    levels: ['certification', 'attestation'],
    levelOf: () => 'certification',
  },
} as const satisfies Record<string, BadgeKind>;

export type BadgeType = keyof typeof BADGE_KINDS;
export const BADGE_TYPES = Object.keys(BADGE_KINDS) as BadgeType[];

/** md has no file suffix (docs/product.md §7: `badge-{type}_{level}[_{size}].png`). */
export const BADGE_SIZES = ['sm', 'md', 'xl'] as const;
export type BadgeSize = (typeof BADGE_SIZES)[number];

/** Pixel width of each size's picture: twice its CSS size, for sharp high-density screens. */
export const BADGE_PIXELS: Record<BadgeSize, number> = { sm: 64, md: 128, xl: 256 };

export function badgeLevel(type: BadgeType, ratio: number | null | undefined): BadgeLevelName {
  return BADGE_KINDS[type].levelOf(ratio);
}

/** The picture's file name, e.g. `badge-level_gold_xl.png`. */
export function badgeFileName(type: BadgeType, level: BadgeLevelName, size: BadgeSize = 'md'): string {
  return `badge-${type}_${level}${size === 'md' ? '' : `_${size}`}.png`;
}

export const BADGE_PICTURE_DIR = '/static/images/badges';

export function badgePicturePath(type: BadgeType, level: BadgeLevelName, size: BadgeSize = 'md'): string {
  return `${BADGE_PICTURE_DIR}/${badgeFileName(type, level, size)}`;
}

/** Every picture the build must produce. */
export function allBadgePictures(): { type: BadgeType; level: BadgeLevelName; size: BadgeSize }[] {
  return BADGE_TYPES.flatMap((type) =>
    BADGE_KINDS[type].levels.flatMap((level) => BADGE_SIZES.map((size) => ({ type, level, size }))),
  );
}

export type DeltaSign = 'positive' | 'negative';

/** docs/product.md §3: a positive change shows green, anything else red. */
export function deltaSign(delta: number): DeltaSign {
  return delta > 0 ? 'positive' : 'negative';
}

/**
 * The change of a learner's XP since a past snapshot (docs/product.md §7 `records` before a date). No
 * snapshot before that date means the learner had none then: the whole XP is the change.
 */
export function xpDelta(
  current: number,
  past: number | null | undefined,
): { delta: number; start: number; sign: DeltaSign } {
  const now = Number.isFinite(current) ? current : 0;
  const start = typeof past === 'number' && Number.isFinite(past) ? past : 0;
  const delta = now - start;
  return { delta, start, sign: deltaSign(delta) };
}

/** `done` of the badge display, clamped to 0..1 (a NaN or missing value reads as 0). */
export function clampDone(done: number | null | undefined): number {
  if (typeof done !== 'number' || Number.isNaN(done)) return 0;
  return Math.min(1, Math.max(0, done));
}
