/**
 * Issue 26 item 5: translation keys as a type, derived from the English catalogue (the reference;
 * a unit test keeps fr.json's keys the same). `t('x.y')` with a key missing from the catalogue
 * fails the type check; the runtime (decision 0004) is unchanged. Plural keys are called by their
 * base (`offline.banner.offline` for `offline_one` / `offline_other`), as i18next does.
 */
import type en from '../locales/en.json';

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type PluralBase<K> = K extends `${infer Base}_${PluralSuffix}` ? Base : never;

type CatalogueLeaf = Leaves<typeof en>;

/** Every key `t` accepts. */
export type TranslationKey = CatalogueLeaf | PluralBase<CatalogueLeaf>;

/** The keys under a prefix, without it: `KeysUnder<'session.notice'>` is 'linkExpired' | … */
export type KeysUnder<P extends string> = TranslationKey extends infer K
  ? K extends `${P}.${infer Rest}`
    ? Rest
    : never
  : never;
