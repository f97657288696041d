import { stat } from 'node:fs/promises';
import path from 'node:path';
import { contactSchema, documentationRequestSchema } from '@parcours/domain/schemas';
import { displayName } from '@parcours/domain/display-name';
import { isSafeKey } from '../../files/store';
import type { FileStore } from '../../files/store';
import type { AuthUser } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import type { MailAttachment } from '../../plugins/mail';
import type { ContextRow } from '../contexts/repository';
import { contextSettings } from '../contexts/service';
import { downloadPath } from '../files/service';
import { notFound } from '../scope';
import type { IdentityDeps } from './deps';
import { localeOf } from './deps';
import { documentationMail, teacherContactMail } from './mails';
import { courseTextsOfLearner, findClassTeachers, findMemberClass, findTenantFiles } from './repository';
import { parseWith } from './validation';

export interface ContactBody {
  classId?: string | undefined;
  subject?: unknown;
  message?: unknown;
  fileIds?: unknown;
}

export interface ContactDeps extends IdentityDeps {
  filesDir: string | null;
  /** The file store (disk or S3); attachments are read from it when it is not the disk folder. */
  files?: FileStore | null;
}

/** Larger files are linked, not attached, so a mail stays deliverable. */
const MAX_ATTACHMENTS_BYTES = 10 * 1024 * 1024;

const missingData = (pointer: string) =>
  ApiError.validation([{ detail: 'validation.contact.missingData', source: { pointer } }]);

/**
 * POST users/contact. With `fileIds` it is the "receive documentation by e-mail" request: the
 * files go to the learner's own address. Without, the message goes to the teachers of the
 * class (only with internal login and allowContactTeacher, docs/product.md §6).
 */
export async function contact(
  deps: ContactDeps,
  context: ContextRow,
  origin: string,
  user: AuthUser,
  body: ContactBody,
): Promise<void> {
  if (body.fileIds !== undefined) return sendDocumentation(deps, context, origin, user, body);
  return contactTeachers(deps, context, user, body);
}

async function contactTeachers(
  deps: ContactDeps,
  context: ContextRow,
  user: AuthUser,
  body: ContactBody,
): Promise<void> {
  const settings = contextSettings(context);
  if (!settings.login.internal || !settings.allowContactTeacher) {
    throw new ApiError(403, 'Forbidden', 'Contacting teachers is not available here.');
  }
  const input = parseWith(contactSchema.omit({ fileIds: true }), {
    subject: body.subject,
    message: body.message,
  });
  if (!body.classId) throw missingData('/classId');
  const klass = await findMemberClass(deps.db, context.id, user.id, body.classId);
  if (!klass) throw notFound('Class');
  const teachers = await findClassTeachers(deps.db, klass.id);
  if (teachers.length === 0)
    throw new ApiError(422, 'BAD_REQUEST', 'This class has no teacher to write to.', { pointer: '/classId' });

  const learner = user.row;
  // One mail per teacher, in their own language, without showing the other addresses.
  for (const teacher of teachers) {
    const mail = teacherContactMail(localeOf(teacher.preferredLocale, settings.defaultLocale), {
      tenantName: context.name,
      learnerName: displayName(learner) || learner.email,
      learnerEmail: learner.email,
      className: klass.name,
      subject: input.subject || undefined,
      message: input.message,
    });
    await deps.mailer.send({
      to: teacher.email,
      fromName: context.name,
      ...(learner.email ? { replyTo: learner.email } : {}),
      ...mail,
    });
  }
}

/** True when a text (JSON or HTML of the learner's courses) names the file. */
function mentions(texts: string[], fileId: string): boolean {
  const quoted = JSON.stringify(fileId);
  const inUrl = `/files/${encodeURIComponent(fileId)}/`;
  return texts.some((t) => t.includes(quoted) || t.includes(inUrl));
}

async function sendDocumentation(
  deps: ContactDeps,
  context: ContextRow,
  origin: string,
  user: AuthUser,
  body: ContactBody,
): Promise<void> {
  const input = parseWith(documentationRequestSchema, { message: body.message, fileIds: body.fileIds });
  const learner = user.row;
  if (!learner.email) throw missingData('/email');
  const ids = [...new Set(input.fileIds)];
  const files = await findTenantFiles(deps.db, context.id, ids);
  const found = new Set(files.map((f) => f.id));
  const unknown = ids.find((id) => !found.has(id));
  if (unknown) throw notFound('File');
  if (!user.isAdmin) {
    // Only files of the courses the learner follows (their lessons' courses and blocks).
    const texts = await courseTextsOfLearner(deps.db, context.id, user.id);
    const hidden = files.find((f) => !mentions(texts, f.id));
    if (hidden)
      throw new ApiError(403, 'Forbidden', 'You may not receive this file.', { pointer: '/fileIds' });
  }

  let budget = MAX_ATTACHMENTS_BYTES;
  const attachments: MailAttachment[] = [];
  const listed: { name: string; url: string; attached: boolean }[] = [];
  for (const id of ids) {
    const file = files.find((f) => f.id === id);
    if (!file) continue;
    let attached = false;
    if (deps.files?.kind === 's3') {
      const size = isSafeKey(file.storagePath) ? await deps.files.size(file.storagePath) : null;
      const content = size !== null && size <= budget ? await deps.files.read(file.storagePath) : null;
      if (content) {
        budget -= content.length;
        attachments.push({ filename: file.name, content, contentType: file.type });
        attached = true;
      }
    } else if (deps.filesDir) {
      const root = path.resolve(deps.filesDir);
      const full = path.resolve(root, file.storagePath);
      const info = full.startsWith(root + path.sep) ? await stat(full).catch(() => null) : null;
      if (info?.isFile() && info.size <= budget) {
        budget -= info.size;
        attachments.push({ filename: file.name, path: full, contentType: file.type });
        attached = true;
      }
    }
    listed.push({ name: file.name, url: `${origin}${downloadPath(file.id)}`, attached });
  }

  const settings = contextSettings(context);
  const mail = documentationMail(localeOf(learner.preferredLocale, settings.defaultLocale), {
    tenantName: context.name,
    message: input.message || undefined,
    files: listed,
  });
  await deps.mailer.send({ to: learner.email, fromName: context.name, ...mail, attachments });
}
