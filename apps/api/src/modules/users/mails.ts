import type { Locale } from '@parcours/domain/entities';
import { escapeHtml } from '../../lib/html';

/**
 * Mail texts, in the recipient's language (preferredLocale, else the tenant's default), each
 * as plain text and simple HTML. User-given text is escaped in HTML and kept as-is in text.
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
  const t =
    locale === 'fr'
      ? {
          subject: `${p.tenantName} : renouvellement de votre mot de passe`,
          intro:
            'Vous avez demandé à renouveler votre mot de passe. Ouvrez ce lien pour en choisir un nouveau :',
          button: 'Choisir un nouveau mot de passe',
          expiry: `Ce lien ne sert qu'une fois et expire dans ${p.ttlMinutes} minutes.`,
          ignore:
            "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.",
        }
      : {
          subject: `${p.tenantName}: renew your password`,
          intro: 'You asked to renew your password. Open this link to choose a new one:',
          button: 'Choose a new password',
          expiry: `This link works once and expires in ${p.ttlMinutes} minutes.`,
          ignore: 'If you did not ask for this, ignore this message: your password stays unchanged.',
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
  const t =
    locale === 'fr'
      ? {
          subject: p.subject
            ? `[${p.className}] ${p.subject}`
            : `[${p.className}] Message de ${p.learnerName}`,
          intro: `${from}, apprenant de la classe « ${p.className} », vous a écrit :`,
          reply: p.learnerEmail
            ? 'Répondez à ce message pour lui écrire.'
            : "Cet apprenant n'a pas d'e-mail enregistré.",
        }
      : {
          subject: p.subject
            ? `[${p.className}] ${p.subject}`
            : `[${p.className}] Message from ${p.learnerName}`,
          intro: `${from}, a learner of the class "${p.className}", wrote to you:`,
          reply: p.learnerEmail
            ? 'Reply to this message to answer them.'
            : 'This learner has no e-mail on record.',
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
  const t =
    locale === 'fr'
      ? {
          subject: `${p.tenantName} : vos documents`,
          intro: 'Voici les documents demandés.',
          attached: '(en pièce jointe)',
        }
      : {
          subject: `${p.tenantName}: your documents`,
          intro: 'Here are the documents you asked for.',
          attached: '(attached)',
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
