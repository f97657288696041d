/**
 * The learner's logbook (docs/product.md §2 Logbook, §3 LogBookRecord): the note rule shared by the note
 * dialog and the log-book-records routes, and the attachment limits shared by the file input
 * and the upload route. Messages are catalogue keys of the web app's `logbook` section.
 */
import { z } from 'zod';
import type { FileAttributes } from './contract/dashboard';

export type { LogBookRecordAttributes } from './contract/dashboard';
/** What the logbook reads of an uploaded file (`files` resource, contract/dashboard.ts). */
export type UploadedFileAttributes = Pick<
  FileAttributes,
  'name' | 'mimeType' | 'fileType' | 'size' | 'ownerId' | 'download' | 'createdAt'
>;

export const LOGBOOK_TITLE_MAX = 200;
export const LOGBOOK_MESSAGE_MAX = 10_000;
/** More than this on one note is a folder, not a note; it also bounds the ownership check. */
export const LOGBOOK_ATTACHMENTS_MAX = 10;
/** 5 MiB: a phone photo or a scanned page fits; a video does not. */
export const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
export const ATTACHMENT_MIME_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'application/pdf'] as const;
export type AttachmentMimeType = (typeof ATTACHMENT_MIME_TYPES)[number];
/** For the file input's `accept`: the browser's picker offers only these. */
export const ATTACHMENT_ACCEPT = ATTACHMENT_MIME_TYPES.join(',');

export const LOGBOOK_MESSAGE_KEYS = {
  titleRequired: 'logbook.validation.titleRequired',
  titleLength: 'logbook.validation.titleLength',
  messageLength: 'logbook.validation.messageLength',
  attachmentsMax: 'logbook.validation.attachmentsMax',
  attachmentId: 'logbook.validation.attachmentId',
  fileType: 'logbook.validation.fileType',
  fileSize: 'logbook.validation.fileSize',
} as const;
const K = LOGBOOK_MESSAGE_KEYS;

// C0 controls other than tab, line feed and carriage return (and DEL) have no place in a note;
// NUL in particular is refused by PostgreSQL text columns.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const plain = (v: string) => v.replace(CONTROL, '');

const title = z
  .string({ error: K.titleRequired })
  .transform(plain)
  .pipe(
    z
      .string()
      .trim()
      .min(1, { error: K.titleRequired, abort: true })
      .max(LOGBOOK_TITLE_MAX, { error: K.titleLength }),
  );

/** Plain text, shown as text (never as HTML), so nothing needs sanitising beyond controls. */
const message = z
  .string({ error: K.messageLength })
  .transform(plain)
  .pipe(z.string().max(LOGBOOK_MESSAGE_MAX, { error: K.messageLength }));

const id = z
  .string({ error: K.attachmentId })
  .trim()
  .min(1, { error: K.attachmentId })
  .max(200, { error: K.attachmentId });

const attachmentIds = z
  .array(id, { error: K.attachmentId })
  .max(LOGBOOK_ATTACHMENTS_MAX, { error: K.attachmentsMax })
  .refine((ids) => new Set(ids).size === ids.length, { error: K.attachmentId });

/** The note as the dialog edits it: title, message and the ids of its uploaded attachments. */
export const logBookNoteSchema = z.object({
  title,
  message: message.default(''),
  attachmentIds: attachmentIds.default([]),
});
export type LogBookNoteInput = z.input<typeof logBookNoteSchema>;
export type LogBookNote = z.output<typeof logBookNoteSchema>;

/**
 * POST log-book-records: a note, about oneself by default; a teacher names the student and the
 * class they teach that student in.
 */
export const logBookRecordCreateSchema = logBookNoteSchema.extend({
  studentId: id.optional(),
  classId: id.nullable().optional(),
  parentId: id.nullable().optional(),
});
export type LogBookRecordCreate = z.output<typeof logBookRecordCreateSchema>;

/** PATCH log-book-records/{id}: only what changes; at least one field. */
export const logBookRecordUpdateSchema = z
  .object({ title: title.optional(), message: message.optional(), attachmentIds: attachmentIds.optional() })
  .refine((v) => v.title !== undefined || v.message !== undefined || v.attachmentIds !== undefined, {
    error: K.titleRequired,
  });
export type LogBookRecordUpdate = z.output<typeof logBookRecordUpdateSchema>;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The type the bytes really are, from their signature (magic number); null for anything else.
 * The declared type of an upload is only a claim: a script renamed photo.png is not a PNG.
 */
export function sniffAttachmentType(bytes: Uint8Array): AttachmentMimeType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf';
  return null;
}

/** `image/jpg` is a common misspelling some systems send; it means JPEG. */
export function normaliseMimeType(declared: string): string {
  const base = declared.split(';')[0]?.trim().toLowerCase() ?? '';
  return base === 'image/jpg' || base === 'image/pjpeg' ? 'image/jpeg' : base;
}

export function isAttachmentMimeType(type: string): type is AttachmentMimeType {
  return (ATTACHMENT_MIME_TYPES as readonly string[]).includes(type);
}

/** `files.fileType` of an attachment: image or pdf, as the importer files them. */
export function attachmentFileType(type: AttachmentMimeType): 'image' | 'pdf' {
  return type === 'application/pdf' ? 'pdf' : 'image';
}

/**
 * What the file input can tell before uploading (declared type and size); the server checks
 * the bytes again. Null when the file may be sent.
 */
export function attachmentProblem(file: { type: string; size: number }): 'fileType' | 'fileSize' | null {
  if (!isAttachmentMimeType(normaliseMimeType(file.type))) return 'fileType';
  if (file.size > ATTACHMENT_MAX_BYTES) return 'fileSize';
  return null;
}
