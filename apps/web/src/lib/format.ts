import type { Locale } from '@parcours/domain/entities';
import { pickDateLocale, type DateLocale } from '@parcours/domain/locale';

/**
 * Short month names as `Intl.DateTimeFormat` writes them (CLDR, format context), so that a date
 * on the first screen needs no Intl: the browser's first Intl call loads ICU's data, 20–60 ms on
 * a laptop and about four times that on a cheap phone, on the home's path to its first content
 * (issue 11, decision 0030). `format.test.ts` checks every month against Intl.
 */
const SHORT_MONTHS: Record<Locale, readonly string[]> = {
  fr: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
};

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * docs/product.md §9 date formats fr, fr-ca, fr-ch: in French, the browser's own region when it
 * asks for Canadian or Swiss French (`navigator.languages`), else fr; English stays en. On the
 * server (no navigator) fr, as the first screen is drawn.
 */
export function dateLocaleOf(
  language: Locale,
  browserLanguages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages,
): DateLocale {
  if (language !== 'fr') return 'en';
  const picked = pickDateLocale(
    browserLanguages.filter((tag) => /^fr\b/i.test(tag)),
    'fr',
  );
  return picked === 'en' ? 'fr' : picked;
}

/** A calendar date in the learner's language (e.g. "3 févr. 2025" / "Feb 3, 2025"); '' when unknown. */
export function formatDate(iso: string | null | undefined, locale: Locale | DateLocale): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  // fr-ca and fr-ch have their own conventions: Intl writes them.
  const months = locale === 'fr' || locale === 'en' ? SHORT_MONTHS[locale] : undefined;
  // Local time, as Intl.DateTimeFormat without a time zone.
  if (months) {
    const day = date.getDate();
    const month = months[date.getMonth()];
    const year = date.getFullYear();
    if (year >= 1000 && year <= 9999)
      return locale === 'fr' ? `${day} ${month} ${year}` : `${month} ${day}, ${year}`;
  }
  // Any other language or an unusual year: Intl itself.
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' });
    dateFormats.set(locale, format);
  }
  return format.format(date);
}
