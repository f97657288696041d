import { PDFDocument, PDFName, PDFString, StandardFonts, rgb } from '@cantoo/pdf-lib';
import type { PDFFont, PDFImage, PDFPage } from '@cantoo/pdf-lib';
import { CERTIFICATE_SCORE_SCALE } from '@parcours/domain/constants';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import { isSafeKey } from '../../files/store';
import type { FileStore } from '../../files/store';
import { findFile } from '../files/repository';
import type { CertificateSnapshot } from './repository';
import { fill } from '../../lib/i18n';
import { DOC_TEXTS, formatDocDate } from './texts';
import type { DocLocale } from './texts';

/**
 * The certificate document (pdf-lib, A4 landscape). Standard fonts keep the file small and
 * need no font files; they encode WinAnsi only, so characters outside it (emoji, most
 * non-Latin scripts) are replaced rather than failing the whole document.
 */

export interface PdfInput {
  snapshot: CertificateSnapshot;
  locale: DocLocale;
  verificationUrl: string;
  logo: Uint8Array | null;
}

function encodable(font: PDFFont, text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      out += '?';
    }
  }
  return out;
}

/** Shrinks the size until the line fits the width (long course titles). */
function fitted(font: PDFFont, text: string, size: number, maxWidth: number): number {
  let s = size;
  while (s > 8 && font.widthOfTextAtSize(text, s) > maxWidth) s -= 1;
  return s;
}

function centred(
  page: PDFPage,
  font: PDFFont,
  raw: string,
  y: number,
  size: number,
  color = rgb(0.1, 0.12, 0.18),
): void {
  const text = encodable(font, raw);
  const { width } = page.getSize();
  const s = fitted(font, text, size, width - 120);
  page.drawText(text, { x: (width - font.widthOfTextAtSize(text, s)) / 2, y, size: s, font, color });
}

async function embedLogo(doc: PDFDocument, bytes: Uint8Array | null): Promise<PDFImage | null> {
  if (!bytes || bytes.length < 8) return null;
  try {
    if (bytes[0] === 0x89 && bytes[1] === 0x50) return await doc.embedPng(bytes);
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return await doc.embedJpg(bytes);
  } catch {
    // A damaged logo must not cost the learner their certificate.
  }
  return null;
}

export async function renderCertificatePdf(input: PdfInput): Promise<Uint8Array> {
  const { snapshot: s, locale } = input;
  const t = DOC_TEXTS[locale];
  const doc = await PDFDocument.create();
  const title = `${t.title[s.wording]} — ${s.courseTitle}`;
  doc.setTitle(encodable(await doc.embedFont(StandardFonts.Helvetica), title));
  doc.setAuthor(s.tenantName);
  doc.setSubject(`${t.reference} ${s.reference}`);
  doc.setCreator('Parcours');
  doc.setLanguage(locale === 'fr' ? 'fr-FR' : 'en-GB');
  // A fixed date keeps two renderings of one certificate byte-identical but for the ids.
  doc.setCreationDate(new Date(s.endedAt));
  doc.setModificationDate(new Date(s.endedAt));

  const page = doc.addPage([842, 595]);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const { width, height } = page.getSize();
  const accent = rgb(0.11, 0.3, 0.85);
  page.drawRectangle({
    x: 24,
    y: 24,
    width: width - 48,
    height: height - 48,
    borderColor: accent,
    borderWidth: 3,
  });
  page.drawRectangle({
    x: 32,
    y: 32,
    width: width - 64,
    height: height - 64,
    borderColor: accent,
    borderWidth: 0.75,
  });

  let y = height - 80;
  const logo = await embedLogo(doc, input.logo);
  if (logo) {
    const scale = Math.min(160 / logo.width, 60 / logo.height, 1);
    const w = logo.width * scale;
    const h = logo.height * scale;
    page.drawImage(logo, { x: (width - w) / 2, y: y - h + 20, width: w, height: h });
    y -= h + 10;
  }
  centred(page, bold, s.tenantName, y, 16);
  y -= 60;
  centred(page, bold, t.title[s.wording].toUpperCase(), y, 36, accent);
  y -= 40;
  centred(page, regular, t.awardedTo, y, 14);
  y -= 36;
  centred(page, bold, s.learnerName, y, 28);
  y -= 34;
  centred(page, regular, t.forCourse, y, 14);
  y -= 30;
  centred(page, bold, s.courseTitle, y, 20);
  y -= 44;
  const fact = (label: string, value: string) => fill(t.fact, { label, value });
  const facts = [
    fact(t.score, `${s.score} / ${CERTIFICATE_SCORE_SCALE}`),
    fact(t.date, formatDocDate(s.endedAt, locale)),
    fact(t.reference, s.reference),
  ];
  centred(page, regular, facts.join('   ·   '), y, 13);

  const urlSize = 9;
  const url = encodable(regular, input.verificationUrl);
  const label = encodable(regular, t.verifyAt);
  page.drawText(label, { x: 56, y: 62, size: urlSize, font: regular, color: rgb(0.3, 0.3, 0.35) });
  const size = fitted(regular, url, urlSize, width - 112);
  page.drawText(url, { x: 56, y: 50, size, font: regular, color: accent });
  linkTo(doc, page, input.verificationUrl, [56, 47, 56 + regular.widthOfTextAtSize(url, size), 50 + size]);
  return doc.save();
}

/** Makes the printed URL clickable in a PDF reader (a URI link annotation over the text). */
function linkTo(doc: PDFDocument, page: PDFPage, url: string, rect: [number, number, number, number]): void {
  const annotation = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: rect,
      Border: [0, 0, 0],
      A: { Type: 'Action', S: 'URI', URI: PDFString.of(url) },
    }),
  );
  page.node.set(PDFName.of('Annots'), doc.context.obj([annotation]));
}

/**
 * The tenant's logo file: `assets.logo` holds the download path of a stored file of the
 * tenant (`/api/files/{id}/download`); anything else (external URL, missing file) gives none.
 */
export async function tenantLogo(
  db: Db,
  files: FileStore | null,
  contextId: string,
  assetsText: string,
): Promise<Uint8Array | null> {
  const logo = parseJson<{ logo?: unknown }>(assetsText, {}).logo;
  if (typeof logo !== 'string' || !files) return null;
  const m = /^\/api\/files\/([^/?#]+)\/download$/.exec(logo);
  if (!m?.[1]) return null;
  const row = await findFile(db, contextId, decodeURIComponent(m[1]));
  if (!row || !/^image\/(png|jpe?g)$/.test(row.type)) return null;
  // storage_path comes from the importer; a key that would leave the store is none of ours.
  if (!isSafeKey(row.storagePath)) return null;
  const bytes = await files.read(row.storagePath).catch(() => null);
  return bytes ? new Uint8Array(bytes) : null;
}
