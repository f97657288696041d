import type { CertificateSnapshot } from './repository';
import { DOC_TEXTS } from './texts';
import type { DocLocale } from './texts';
import { escapeHtml } from '../../lib/html';

/**
 * The Achievement's image (OB 3.0 `Achievement.image`, issue 39): a badge drawn from the
 * certificate's snapshot — its wording, course and issuer, never the learner — so every
 * credential has a picture a wallet can show, whatever the tenant's branding holds. SVG, which
 * OB 3.0 allows beside PNG; every text is escaped (titles come from authors) and the file holds
 * no script nor outside reference.
 */

const MAX_LINE = 26;

/** The title cut on words into at most three lines of about MAX_LINE characters. */
function lines(text: string): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > MAX_LINE) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  if (out.length > 3) out.splice(2, out.length - 2, `${out[2] ?? ''}…`);
  return out.map((l) => (l.length > MAX_LINE + 4 ? `${l.slice(0, MAX_LINE)}…` : l));
}

export function badgeSvg(s: CertificateSnapshot, locale: DocLocale): string {
  const t = DOC_TEXTS[locale];
  const title = lines(s.courseTitle);
  const text = (y: number, size: number, weight: string, value: string) =>
    `<text x="200" y="${y}" font-size="${size}" font-weight="${weight}" text-anchor="middle">${escapeHtml(value)}</text>`;
  const top = 190 - (title.length - 1) * 14;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400" role="img" aria-label="${escapeHtml(`${t.title[s.wording]} — ${s.courseTitle}`)}">
<circle cx="200" cy="200" r="190" fill="#1b3a6b"/>
<circle cx="200" cy="200" r="172" fill="#ffffff"/>
<circle cx="200" cy="200" r="164" fill="none" stroke="#c9a227" stroke-width="6"/>
<g font-family="Helvetica, Arial, sans-serif" fill="#1a1f2e">
${text(120, 26, 'bold', t.title[s.wording].toUpperCase())}
${title.map((l, i) => text(top + i * 28, 22, 'normal', l)).join('\n')}
${text(300, 16, 'normal', s.tenantName.slice(0, 40))}
</g>
</svg>`;
}
