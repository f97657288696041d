/** How files are named and sized for learners (docs/product.md §9), shared by the player and the widgets. */
import { FILE_NAME_MAX } from './constants';

/** docs/product.md §9 units; the web app passes each language's own from its catalogue (en: B, KB, MB, GB, TB). */
export const SIZE_UNITS = ['o', 'Ko', 'Mo', 'Go', 'To'] as const;

/**
 * docs/product.md §9: sizes in o, Ko, Mo, Go, To (or the five `units` given), by steps of 1024, one decimal
 * past the byte, written with the locale's decimal sign.
 */
export function formatFileSize(bytes: number, locale = 'fr', units: readonly string[] = SIZE_UNITS): string {
  const names = units.length === SIZE_UNITS.length ? units : SIZE_UNITS;
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // Rounding 1023.96 Ko up would print "1024 Ko": step up instead.
  if (unit < SIZE_UNITS.length - 1 && Math.round(value * 10) / 10 >= 1024) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : 1;
  const text = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, useGrouping: false }).format(
    value,
  );
  return `${text} ${names[unit]}`;
}

/** docs/product.md §9: file names longer than 56 characters are cut, an ellipsis making the 56th. */
export function truncateFileName(name: string, max = FILE_NAME_MAX): string {
  const chars = Array.from(name);
  return chars.length <= max ? name : `${chars.slice(0, max - 1).join('')}…`;
}
