/**
 * What a package page's content says about its package (`content.package`, docs/api.md
 * "Packages"): its kind, its title, the frame's size when the content gives one, and the launch
 * the server issued with the page. Anything else is no package: the player shows nothing rather
 * than a button that cannot work.
 */
import {
  AU_STATUSES,
  PACKAGE_KINDS,
  type AuStatus,
  type PackageKind,
  type PackageView,
} from '@parcours/domain/entities';

/** A size is taken between these bounds (the content format's); anything else is ignored. */
const MIN_SIDE = 200;
const MAX_SIDE = 4000;

const side = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= MIN_SIDE && value <= MAX_SIDE
    ? Math.round(value)
    : null;

export function packageInfoOf(value: unknown): PackageView | null {
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Record<string, unknown>;
  if (!PACKAGE_KINDS.includes(p.kind as PackageKind)) return null;
  return {
    kind: p.kind as PackageKind,
    title: typeof p.title === 'string' ? p.title.trim() : '',
    width: side(p.width),
    height: side(p.height),
    launch: typeof p.launch === 'string' && p.launch !== '' ? p.launch : null,
    units: Array.isArray(p.units)
      ? p.units.flatMap((u: unknown) => {
          if (typeof u !== 'object' || u === null) return [];
          const unit = u as Record<string, unknown>;
          // A cmi5 AU's status in the learner's registration (decision 0071); an unknown one is left out.
          const status = AU_STATUSES.includes(unit.status as AuStatus) ? (unit.status as AuStatus) : null;
          return [
            {
              title: typeof unit.title === 'string' ? unit.title.trim() : '',
              ownWindow: unit.ownWindow === true,
              ...(status ? { status } : {}),
            },
          ];
        })
      : [],
  };
}
