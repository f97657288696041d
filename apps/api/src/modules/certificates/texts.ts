import { CATALOGUES } from '../../lib/i18n';
import type { Catalogue } from '../../lib/i18n';

/** The language of the documents the server renders itself (PDF, verification page, credential). */
export type DocLocale = 'fr' | 'en';

export function docLocale(
  preferred: string | null | undefined,
  tenantDefault: string | null | undefined,
): DocLocale {
  const pick = (v: string | null | undefined) => (v ?? '').trim().toLowerCase().split(/[-_]/)[0];
  const a = pick(preferred);
  if (a === 'fr' || a === 'en') return a;
  return pick(tenantDefault) === 'en' ? 'en' : 'fr';
}

/** The words of these documents: the `document` part of the server's catalogues (lib/i18n.ts). */
export const DOC_TEXTS: Record<DocLocale, Catalogue['document']> = {
  fr: CATALOGUES.fr.document,
  en: CATALOGUES.en.document,
};

/** A calendar date in the document's language, in UTC so every reader sees the same day. */
export function formatDocDate(iso: string, locale: DocLocale): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'long',
    timeZone: 'UTC',
  }).format(d);
}
