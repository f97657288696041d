import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';

/**
 * Outgoing mail (docs/architecture.md §1): SMTP when SMTP_URL is set; otherwise every message is
 * written as an .eml file under DATA_DIR/outbox and its path logged, so a demo works without a
 * mail server. Tests pass their own transport (or an SMTP_URL to a local smtp-server).
 */

export interface MailAttachment {
  filename: string;
  /** Absolute path of the file to attach (streamed by nodemailer)... */
  path?: string;
  /** ...or its bytes (a file of an S3 store). */
  content?: Buffer;
  contentType?: string;
}

export interface MailMessage {
  to: string;
  /** Display name shown as the sender, e.g. the tenant's name. */
  fromName?: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

export interface SentMail {
  messageId: string;
  /** The .eml file written in outbox mode. */
  file?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export interface MailOptions {
  smtpUrl?: string | undefined;
  /** Outbox folder used without SMTP. */
  outboxDir: string;
  /** Sender address; the display name comes with each message. */
  from?: string;
  /** A ready transport (tests); wins over smtpUrl and the outbox. */
  transport?: Transporter | undefined;
}

export const DEFAULT_FROM = 'no-reply@parcours.invalid';

function sanitizeName(name: string): string {
  // A display name is put in a header: no quotes, angle brackets or line breaks.
  return name.replace(/[\r\n"<>]/g, ' ').trim();
}

export function createMailer(opts: MailOptions, log: FastifyBaseLogger): Mailer {
  const fromAddress = opts.from ?? DEFAULT_FROM;
  const toNodemailer = (m: MailMessage) => ({
    from: m.fromName ? { name: sanitizeName(m.fromName), address: fromAddress } : fromAddress,
    to: m.to,
    ...(m.replyTo ? { replyTo: m.replyTo } : {}),
    subject: m.subject,
    text: m.text,
    html: m.html,
    ...(m.attachments?.length ? { attachments: m.attachments } : {}),
  });

  if (opts.transport || opts.smtpUrl) {
    const transport = opts.transport ?? nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(message) {
        const info = (await transport.sendMail(toNodemailer(message))) as { messageId?: string };
        return { messageId: info.messageId ?? '' };
      },
    };
  }

  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = (await stream.sendMail(toNodemailer(message))) as { messageId?: string; message: Buffer };
      await mkdir(opts.outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(opts.outboxDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      // Written aside, then renamed: whoever reads the outbox (a journey, a tail of the folder)
      // finds each .eml whole or not at all, never the empty file writeFile starts with.
      await writeFile(`${file}.part`, info.message, { mode: 0o600 });
      await rename(`${file}.part`, file);
      log.info({ file, to: message.to, subject: message.subject }, `mail written to ${file}`);
      return { messageId: info.messageId ?? '', file };
    },
  };
}

export function registerMail(app: FastifyInstance, opts: MailOptions): Mailer {
  const mailer = createMailer(opts, app.log);
  app.decorate('mailer', mailer);
  return mailer;
}
