import type { Locale } from '@parcours/domain/entities';

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A calendar date in the learner's language (e.g. "3 févr. 2025" / "Feb 3, 2025"); '' when unknown. */
export function formatDate(iso: string | null | undefined, locale: Locale): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' });
    dateFormats.set(locale, format);
  }
  return format.format(date);
}
