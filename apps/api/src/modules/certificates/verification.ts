import { CERTIFICATE_SCORE_SCALE } from '@parcours/domain/constants';
import type { CertificateSnapshot } from './repository';
import { DOC_TEXTS, formatDocDate } from './texts';
import type { DocLocale } from './texts';
import { escapeHtml } from '../../lib/html';
import { t } from '../../lib/i18n';

/**
 * The public verification page: exactly the facts printed on the document and whether it is
 * still valid — nothing else about the learner (no e-mail, no other results). Every value is
 * escaped: names and titles come from users and authors.
 */

export interface Verification {
  status: 'valid' | 'revoked';
  snapshot: CertificateSnapshot;
}

export function verificationJson(v: Verification, url: string) {
  const s = v.snapshot;
  return {
    status: v.status,
    url,
    wording: s.wording,
    tenant: s.tenantName,
    learner: s.learnerName,
    course: s.courseTitle,
    score: s.score,
    scoreScale: CERTIFICATE_SCORE_SCALE,
    date: s.endedAt,
    reference: s.reference,
  };
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}
main{max-width:40rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #cbd5e1;border-radius:.5rem}
h1{font-size:1.5rem;margin-top:0}dl{display:grid;grid-template-columns:max-content 1fr;gap:.5rem 1rem}
dt{font-weight:600}dd{margin:0}.valid{color:#166534}.revoked{color:#991b1b}nav{margin-top:1.5rem;font-size:.9rem}a{color:#1d4ed8}`;

function page(locale: DocLocale, title: string, body: string, otherLang: string): string {
  const other: DocLocale = locale === 'fr' ? 'en' : 'fr';
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}<nav><a href="${escapeHtml(otherLang)}" hreflang="${other}" lang="${other}">${escapeHtml(t(other, 'language.name'))}</a></nav></main></body></html>`;
}

export function verificationHtml(v: Verification, locale: DocLocale, otherLang: string): string {
  const t = DOC_TEXTS[locale];
  const s = v.snapshot;
  const title = t.verifyTitle[s.wording];
  const row = (k: string, val: string, cls = '') =>
    `<dt>${escapeHtml(k)}</dt><dd${cls ? ` class="${cls}"` : ''}>${escapeHtml(val)}</dd>`;
  const body = `<h1>${escapeHtml(title)}</h1><dl>
${row(t.status, v.status === 'valid' ? t.valid : t.revoked, v.status)}
${row(t.reference, s.reference)}
${row(t.issuer, s.tenantName)}
${row(t.learner, s.learnerName)}
${row(t.course, s.courseTitle)}
${row(t.score, `${s.score} / ${CERTIFICATE_SCORE_SCALE}`)}
${row(t.date, formatDocDate(s.endedAt, locale))}
</dl>`;
  return page(locale, title, body, otherLang);
}

export function notFoundHtml(locale: DocLocale, otherLang: string): string {
  const t = DOC_TEXTS[locale];
  return page(
    locale,
    t.notFound,
    `<h1>${escapeHtml(t.notFound)}</h1><p>${escapeHtml(t.notFoundDetail)}</p>`,
    otherLang,
  );
}
