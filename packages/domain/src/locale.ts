import { LOCALES } from './entities';
import type { Locale } from './entities';

export type DateLocale = 'fr' | 'fr-ca' | 'fr-ch' | 'en';

/** Primary language subtag, lower-cased: `fr-CA` and `fr_CH` give `fr`. */
function primary(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/**
 * Interface language from the browser's preference list (navigator.languages, most wanted
 * first): the first supported language wins, whatever its region; else the fallback.
 */
export function pickLocale(browserLanguages: readonly string[], fallback: Locale = 'en'): Locale {
  for (const tag of browserLanguages) {
    const language = primary(tag);
    if (isLocale(language)) return language;
  }
  return fallback;
}

/**
 * Date-formatting locale (docs/product.md §9 locales fr, fr-ca, fr-ch): Canadian and Swiss French keep
 * their own date conventions, other French regions use fr.
 */
export function pickDateLocale(browserLanguages: readonly string[], fallback: Locale = 'en'): DateLocale {
  for (const tag of browserLanguages) {
    const normalised = tag.trim().toLowerCase().replace('_', '-');
    const language = primary(normalised);
    if (!isLocale(language)) continue;
    if (language === 'en') return 'en';
    if (normalised.startsWith('fr-ca')) return 'fr-ca';
    if (normalised.startsWith('fr-ch')) return 'fr-ch';
    return 'fr';
  }
  return fallback;
}
