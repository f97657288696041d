import type { Locale } from '@parcours/domain/entities';

/**
 * The CLDR plural category of `count` in French or English, as `Intl.PluralRules` gives it
 * (`plural.test.ts` checks it against Intl). Written out because the texts of the first screen
 * use plurals, and the browser's first Intl call loads ICU's data on that screen's path
 * (issue 11, decision 0030); any other language asks Intl.
 * - en: "one" for exactly 1, else "other".
 * - fr: "one" when the integer part is 0 or 1 (so 1.5 too); "many" for whole millions; else "other".
 */
export function pluralCategory(lang: Locale | string, count: number): Intl.LDMLPluralRule {
  if (!Number.isFinite(count)) return 'other';
  const abs = Math.abs(count);
  const integer = Math.floor(abs);
  if (lang === 'fr') {
    if (integer === 0 || integer === 1) return 'one';
    return integer === abs && integer % 1_000_000 === 0 ? 'many' : 'other';
  }
  if (lang === 'en') return abs === 1 ? 'one' : 'other';
  return new Intl.PluralRules(lang).select(count);
}
