/**
 * What a package page's content says about its package (`content.package`, docs/api.md
 * "Packages"): its kind, its title, the size its manifest asks for, and the launch the server
 * issued with the page. Anything else is no package: the player shows nothing rather than a
 * button that cannot work.
 */

export const PACKAGE_KINDS = ['scorm12', 'scorm2004', 'cmi5', 'xapi'] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];

export interface PackageInfo {
  kind: PackageKind;
  title: string;
  /** CSS pixels the manifest asks for; null lets the dialog size the frame to the screen. */
  width: number | null;
  height: number | null;
  /** The launch token the server issued with the page; null once there is none (a page read back). */
  launch: string | null;
}

/** A manifest's size is taken between these bounds; anything else is ignored (responsive frame). */
const MIN_SIDE = 200;
const MAX_SIDE = 4000;

const side = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= MIN_SIDE && value <= MAX_SIDE
    ? Math.round(value)
    : null;

export function packageInfoOf(value: unknown): PackageInfo | null {
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Record<string, unknown>;
  if (!PACKAGE_KINDS.includes(p.kind as PackageKind)) return null;
  return {
    kind: p.kind as PackageKind,
    title: typeof p.title === 'string' ? p.title.trim() : '',
    width: side(p.width),
    height: side(p.height),
    launch: typeof p.launch === 'string' && p.launch !== '' ? p.launch : null,
  };
}
