import type { Locale } from '@parcours/domain/entities';
import en from '../locales/en.json';
import fr from '../locales/fr.json';

/**
 * The server's own texts (issue 40 item 4): what a person reads that the server writes itself —
 * mails, certificates and their verification page, the credential's words, the authoring page,
 * the reset link's refusals. The web app's catalogues do not reach the server, so it keeps a pair
 * of its own, in the same format (i18next's nested keys and `{{name}}` placeholders).
 * `test/lib/i18n.test.ts` holds both to the same keys and placeholders, and finds French text
 * written anywhere else in `src/`.
 */
export type Catalogue = typeof fr;

export const CATALOGUES: Record<Locale, Catalogue> = { fr, en };

/** Dotted paths to the catalogue's strings: `mail.reset.subject`. */
type Paths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Paths<T[K], `${P}${K}.`>;
}[keyof T & string];
export type TextKey = Paths<Catalogue>;

/** One text of the catalogue of `locale`, its `{{name}}` placeholders filled from `values`. */
export function t(locale: Locale, key: TextKey, values: Record<string, string | number> = {}): string {
  let node: unknown = CATALOGUES[locale];
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  if (typeof node !== 'string') throw new Error(`no server text ${key} in ${locale}`);
  return fill(node, values);
}

/** `{{name}}` replaced by its value; a placeholder without a value is kept, so a test sees it. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
