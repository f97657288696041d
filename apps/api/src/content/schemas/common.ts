/** Pieces every content file shares: ids, dates, file paths, HTML (docs/content-format.md). */
import { z } from 'zod';

/** Content ids are slugs: they end up in stable ids and in error messages, so keep them plain. */
export const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes');

/**
 * A date in content: absolute (`2026-03-01`, or a full ISO timestamp) or relative to the import
 * day (`now`, `-30d`, `+60d`, `now+2w`). Relative dates resolve to 00:00 UTC of that day so two
 * imports on the same day write the same values.
 */
export const RELATIVE_DATE = /^(?:now)?(?:([+-]\d+)([dw]))?$/;
export const contentDate = z
  .string()
  .refine(
    (s) =>
      s !== '' && (RELATIVE_DATE.test(s) || (/^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)))),
    'expected YYYY-MM-DD, an ISO timestamp, now, or a relative date like -30d, +2w, now+7d',
  );

export function resolveDate(value: string, now: Date): string {
  const m = RELATIVE_DATE.exec(value);
  if (m) {
    const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const n = m[1] ? Number(m[1]) * (m[2] === 'w' ? 7 : 1) : 0;
    return new Date(day + n * 86_400_000).toISOString();
  }
  return new Date(value.length === 10 ? `${value}T00:00:00Z` : value).toISOString();
}

/** A path to a file inside the content folder (relative to the folder given to the importer). */
export const filePath = z
  .string()
  .min(1)
  .refine(
    (p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..'),
    'must be relative to the content folder, without ..',
  );

export const html = z.string();

/**
 * An icon by name, drawn by the web app (badge and competency icons: star, calculator, shield,
 * building, handshake, book, users, briefcase, chart, heart, wrench, cart, lightbulb, globe,
 * leaf; an unknown name draws the star).
 */
export const iconName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'an icon name: lowercase letters, digits and dashes');

/** How a certifying course's document is worded (docs/product.md §9: certification or attestation). */
export const CERTIFICATION_WORDINGS = ['certification', 'attestation'] as const;
export type CertificationWording = (typeof CERTIFICATION_WORDINGS)[number];
