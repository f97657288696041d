/**
 * Translation runtime with the i18next catalogue format (nested keys, `{{name}}` interpolation,
 * `_one`/`_other` plural suffixes, fallback language en) and react-i18next's
 * `useTranslation()` shape.
 *
 * Why not i18next itself: i18next + react-i18next weigh ~17 kB gzip, on top of React 19 +
 * react-dom (~69 kB) and React Router (~14 kB), in the JS every page loads first, /login
 * included: bytes a cheap phone on a slow network fetches and parses before the page is the
 * app's (decision 0004; the 100 kB budget that first decided it was withdrawn by issue 26).
 * The catalogues and call sites stay i18next-compatible, so switching back is a change to this
 * file only.
 */
import type { Locale } from '@parcours/domain/entities';
import { useMemo, useSyncExternalStore } from 'react';
import type { ErrorCode } from '@parcours/domain/errors';
import type { KeysUnder, TranslationKey } from './i18n-keys';
import { pluralCategory } from './plural';
import { requestScope, useRequestScope } from './request-scope';

export type Catalogue = { [key: string]: string | Catalogue };
export type TOptions = Record<string, string | number | null | undefined> & { defaultValue?: string };
/**
 * A key of the catalogue (issue 26 item 5): an unknown key is a type error. A key built at run
 * time is typed by its parts (a template literal over a union of known names checks itself) or
 * goes through `dynamicKey`, which says where the check is given up.
 */
export type TFunction = (key: TranslationKey, options?: TOptions) => string;
export type { TranslationKey } from './i18n-keys';

/**
 * A key computed from data (a code from the server, a name from content): typed by its prefix,
 * which must lead to keys of the catalogue; the rest is only known at run time, where a missing
 * key shows the `defaultValue` or the key itself (decision 0004).
 */
export function dynamicKey<P extends string>(
  prefix: P & (KeysUnder<P> extends never ? never : P),
  rest: string,
): TranslationKey {
  return `${prefix}.${rest}` as TranslationKey;
}

export const FALLBACK_LOCALE: Locale = 'en';

const catalogues: Partial<Record<Locale, Catalogue>> = {};
let language: Locale = FALLBACK_LOCALE;
const listeners = new Set<() => void>();

type Loader = () => Promise<{ default: Catalogue }>;

// Only the learner's language is downloaded, in two chunks cut from the one catalogue file by
// vite-locale-split.ts: the core (sign-in, public pages, errors) and the signed-in screens' texts.
const coreLoaders: Record<Locale, Loader> = {
  fr: () => import('virtual:locales/fr/core'),
  en: () => import('virtual:locales/en/core'),
};
const screenLoaders: Record<Locale, Loader> = {
  fr: () => import('virtual:locales/fr/screens'),
  en: () => import('virtual:locales/en/screens'),
};
// Both at once for a start on a signed-in screen (expectScreenTexts): one file instead of two
// before the first screen, whose every request waits for a connection on a slow phone (issue 11).
const allLoaders: Record<Locale, Loader> = {
  fr: () => import('virtual:locales/fr/all'),
  en: () => import('virtual:locales/en/all'),
};
const loadedParts = new Set<string>();
/** Languages whose whole catalogue was registered directly (addCatalogue): nothing to fetch. */
const whole = new Set<Locale>();
let screensWanted = false;

async function loadPart(lang: Locale, part: 'core' | 'screens'): Promise<void> {
  const key = `${lang}/${part}`;
  if (whole.has(lang) || loadedParts.has(key)) return;
  const both = screensWanted && !loadedParts.has(`${lang}/core`) && !loadedParts.has(`${lang}/screens`);
  const loader = both ? allLoaders : part === 'core' ? coreLoaders : screenLoaders;
  const { default: texts } = await loader[lang]();
  catalogues[lang] = { ...catalogues[lang], ...texts };
  loadedParts.add(key);
  if (both) loadedParts.add(`${lang}/core`).add(`${lang}/screens`);
}

/**
 * A start on a signed-in screen: the screens' texts will be wanted, so the first language load
 * takes the whole catalogue in one file (index.html's script asked for that same file).
 */
export function expectScreenTexts(): void {
  screensWanted = true;
}

function lookup(catalogue: Catalogue | undefined, key: string): string | undefined {
  let node: string | Catalogue | undefined = catalogue;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Languages that write a decimal comma (French: "9,3 / 10", as the calculator does). */
const DECIMAL_COMMA: ReadonlySet<Locale> = new Set(['fr']);

/**
 * A number as the language writes it. Only the decimal separator changes: no grouping (a year or
 * an id stays whole) and no Intl, whose first call loads ICU's data on the first screen's path
 * (lib/format.ts says why).
 */
function written(lang: Locale, value: string | number): string {
  const text = String(value);
  return typeof value === 'number' && !Number.isInteger(value) && DECIMAL_COMMA.has(lang)
    ? text.replace('.', ',')
    : text;
}

function interpolate(lang: Locale, text: string, options: TOptions | undefined): string {
  if (!options) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const value = options[name];
    return value === undefined || value === null ? whole : written(lang, value);
  });
}

function resolve(lang: Locale, key: string, options: TOptions | undefined): string | undefined {
  const catalogue = catalogues[lang];
  const count = options?.count;
  if (typeof count === 'number') {
    const form = count === 0 ? lookup(catalogue, `${key}_zero`) : undefined;
    const plural = form ?? lookup(catalogue, `${key}_${pluralCategory(lang, count)}`);
    if (plural !== undefined) return plural;
  }
  return lookup(catalogue, key);
}

function translate(lang: Locale, key: TranslationKey, options: TOptions | undefined): string {
  const text =
    resolve(lang, key, options) ??
    (lang === FALLBACK_LOCALE ? undefined : resolve(FALLBACK_LOCALE, key, options)) ??
    options?.defaultValue ??
    key;
  return interpolate(lang, text, options);
}

/** In the current language: the browser's, or on the server the drawn request's (lib/request-scope.ts). */
export const t: TFunction = (key, options) => translate(getLanguage(), key, options);

/** True when the current language (or the fallback) has this key. */
export function exists(key: TranslationKey): boolean {
  return (
    lookup(catalogues[getLanguage()], key) !== undefined ||
    lookup(catalogues[FALLBACK_LOCALE], key) !== undefined
  );
}

export function getLanguage(): Locale {
  return requestScope()?.lang ?? language;
}

/** Registers a catalogue directly (tests, or a catalogue already in memory). */
export function addCatalogue(lang: Locale, catalogue: Catalogue): void {
  catalogues[lang] = catalogue;
  whole.add(lang);
}

/** The language being changed to (or the current one): what the screens' texts are loaded for. */
let coming: Locale = language;

export async function changeLanguage(lang: Locale): Promise<void> {
  coming = lang;
  await loadPart(lang, 'core');
  if (screensWanted) await loadPart(lang, 'screens');
  // The language asked for last wins, not the one whose texts arrived last: boot asks for the
  // browser's, then the learner's own choice, which may be loaded first (issue 37).
  if (coming !== lang) return;
  language = lang;
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  listeners.forEach((listener) => listener());
}

/**
 * The signed-in screens' texts: awaited by the first signed-in screen (see app/RouteGate), kept
 * for later language changes. Re-renders readers once they arrive.
 */
export async function loadScreenTexts(): Promise<void> {
  screensWanted = true;
  // The language on its way, not the one shown: a drawn page's start asks for the screens' texts
  // while boot still changes from the fallback to the page's language, and took both languages'.
  const lang = coming;
  if (whole.has(lang) || loadedParts.has(`${lang}/screens`)) return;
  await loadPart(lang, 'screens');
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface I18nHandle {
  language: Locale;
  changeLanguage: (lang: Locale) => Promise<void>;
}

/** Same shape as react-i18next's hook; re-renders the caller when the language changes. */
export function useTranslation(): { t: TFunction; i18n: I18nHandle } {
  const scope = useRequestScope();
  const current = useSyncExternalStore(subscribe, getLanguage, getLanguage);
  const scoped = scope?.lang;
  // A drawn request's own language (decision 0060); the browser's module `t` otherwise.
  const scopedT = useMemo<TFunction | null>(
    () => (scoped ? (key, options) => translate(scoped, key, options) : null),
    [scoped],
  );
  return { t: scopedT ?? t, i18n: { language: scoped ?? current, changeLanguage } };
}

/**
 * The texts of an error code (docs/product.md §8). Every code of the domain's catalogue has both (a type
 * check in i18n-keys.test.ts); a code the server invents shows its key, as decision 0004 does.
 */
export function errorKeys(code: ErrorCode | (string & {})): {
  title: TranslationKey;
  message: TranslationKey;
} {
  return { title: keyFromData(`errors.${code}.title`), message: keyFromData(`errors.${code}.message`) };
}

/**
 * A key that arrives as data — a validation message of the domain's schemas, an error's detail
 * from the server, a button label named by content: typed here, checked at run time, where a key
 * missing from the catalogue shows itself (decision 0004). Keys written in the code never use it.
 */
export function keyFromData(key: string): TranslationKey {
  return key as TranslationKey;
}
