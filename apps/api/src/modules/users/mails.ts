import type { Locale } from '@parcours/domain/entities';
import { escapeHtml } from '../../lib/html';
import { t as text } from '../../lib/i18n';

/**
 * Mail texts, in the recipient's language (preferredLocale, else the tenant's default), each
 * as plain text and simple HTML; the words come from the server's catalogues (lib/i18n.ts). User-given text is escaped in HTML and kept as-is in text.
 */

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

function htmlParagraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

function layout(tenantName: string, body: string): string {
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#1e293b">
<h1 style="font-size:18px">${escapeHtml(tenantName)}</h1>
${body}
</body></html>`;
}

export function resetMail(
  locale: Locale,
  p: { tenantName: string; link: string; ttlMinutes: number },
): MailContent {
  const tx = (key: Parameters<typeof text>[1]) =>
    text(locale, key, { tenant: p.tenantName, minutes: p.ttlMinutes });
  const t = {
    subject: tx('mail.reset.subject'),
    intro: tx('mail.reset.intro'),
    button: tx('mail.reset.button'),
    expiry: tx('mail.reset.expiry'),
    ignore: tx('mail.reset.ignore'),
  };
  return {
    subject: t.subject,
    text: `${t.intro}\n\n${p.link}\n\n${t.expiry}\n\n${t.ignore}\n\n${p.tenantName}\n`,
    html: layout(
      p.tenantName,
      `<p>${escapeHtml(t.intro)}</p>
<p><a href="${escapeHtml(p.link)}">${escapeHtml(t.button)}</a></p>
<p>${escapeHtml(t.expiry)}</p>
<p>${escapeHtml(t.ignore)}</p>`,
    ),
  };
}

export function teacherContactMail(
  locale: Locale,
  p: {
    tenantName: string;
    learnerName: string;
    learnerEmail: string;
    className: string;
    subject?: string | undefined;
    message: string;
  },
): MailContent {
  const from = p.learnerEmail ? `${p.learnerName} <${p.learnerEmail}>` : p.learnerName;
  const t = {
    subject: p.subject
      ? `[${p.className}] ${p.subject}`
      : text(locale, 'mail.contact.subjectDefault', { className: p.className, learner: p.learnerName }),
    intro: text(locale, 'mail.contact.intro', { from, className: p.className }),
    reply: text(locale, p.learnerEmail ? 'mail.contact.reply' : 'mail.contact.noEmail'),
  };
  return {
    subject: t.subject,
    text: `${t.intro}\n\n${p.message}\n\n${t.reply}\n\n${p.tenantName}\n`,
    html: layout(
      p.tenantName,
      `<p>${escapeHtml(t.intro)}</p>
<blockquote style="border-left:3px solid #cbd5e1;margin:0;padding-left:12px">${htmlParagraphs(p.message)}</blockquote>
<p>${escapeHtml(t.reply)}</p>`,
    ),
  };
}

export function documentationMail(
  locale: Locale,
  p: {
    tenantName: string;
    message?: string | undefined;
    files: { name: string; url: string; attached: boolean }[];
  },
): MailContent {
  const t = {
    subject: text(locale, 'mail.documents.subject', { tenant: p.tenantName }),
    intro: text(locale, 'mail.documents.intro'),
    attached: text(locale, 'mail.documents.attached'),
  };
  const lines = p.files.map((f) => `- ${f.name}${f.attached ? ` ${t.attached}` : ''}: ${f.url}`).join('\n');
  const items = p.files
    .map(
      (f) =>
        `<li><a href="${escapeHtml(f.url)}">${escapeHtml(f.name)}</a>${f.attached ? ` ${escapeHtml(t.attached)}` : ''}</li>`,
    )
    .join('\n');
  return {
    subject: t.subject,
    text: `${t.intro}\n\n${p.message ? `${p.message}\n\n` : ''}${lines}\n\n${p.tenantName}\n`,
    html: layout(
      p.tenantName,
      `<p>${escapeHtml(t.intro)}</p>\n${p.message ? htmlParagraphs(p.message) : ''}\n<ul>${items}</ul>`,
    ),
  };
}
