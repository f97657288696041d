import type { CertificationWording } from '@parcours/domain/certification';

/**
 * Words of the documents the server renders itself (PDF, verification page). The web app's
 * catalogues do not reach the server, so these few strings live here, in both languages.
 */
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

interface DocTexts {
  title: Record<CertificationWording, string>;
  awardedTo: string;
  forCourse: string;
  score: string;
  date: string;
  reference: string;
  verifyAt: string;
  verifyTitle: Record<CertificationWording, string>;
  learner: string;
  course: string;
  issuer: string;
  status: string;
  valid: string;
  revoked: string;
  notFound: string;
  notFoundDetail: string;
}

export const DOC_TEXTS: Record<DocLocale, DocTexts> = {
  fr: {
    title: { certification: 'Certificat', attestation: 'Attestation' },
    awardedTo: 'décerné(e) à',
    forCourse: 'pour avoir suivi le cours',
    score: 'Score',
    date: 'Date',
    reference: 'Référence',
    verifyAt: 'Vérifier ce document :',
    verifyTitle: {
      certification: 'Vérification d’un certificat',
      attestation: 'Vérification d’une attestation',
    },
    learner: 'Apprenant(e)',
    course: 'Cours',
    issuer: 'Émis par',
    status: 'Statut',
    valid: 'Valide',
    revoked: 'Révoqué',
    notFound: 'Document introuvable',
    notFoundDetail: 'Aucun document ne correspond à cette adresse.',
  },
  en: {
    title: { certification: 'Certificate', attestation: 'Attestation' },
    awardedTo: 'awarded to',
    forCourse: 'for completing the course',
    score: 'Score',
    date: 'Date',
    reference: 'Reference',
    verifyAt: 'Verify this document:',
    verifyTitle: { certification: 'Certificate verification', attestation: 'Attestation verification' },
    learner: 'Learner',
    course: 'Course',
    issuer: 'Issued by',
    status: 'Status',
    valid: 'Valid',
    revoked: 'Revoked',
    notFound: 'Document not found',
    notFoundDetail: 'No document matches this address.',
  },
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
