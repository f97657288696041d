import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ATTACHMENT_MAX_BYTES,
  LOGBOOK_ATTACHMENTS_MAX,
  LOGBOOK_MESSAGE_KEYS,
  LOGBOOK_MESSAGE_MAX,
  LOGBOOK_TITLE_MAX,
  attachmentFileType,
  attachmentProblem,
  logBookNoteSchema,
  logBookRecordCreateSchema,
  logBookRecordUpdateSchema,
  normaliseMimeType,
  sniffAttachmentType,
} from './logbook';

const K = LOGBOOK_MESSAGE_KEYS;

/** First message per field path, or null when valid. */
function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> | null {
  const result = schema.safeParse(input);
  if (result.success) return null;
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}

describe('logBookNoteSchema', () => {
  it.each<[string, unknown, Record<string, string> | null]>([
    ['a title alone', { title: 'Stage jour 1' }, null],
    [
      'title, message and attachments',
      { title: 'T', message: 'Long day.\nGood.', attachmentIds: ['f1', 'f2'] },
      null,
    ],
    ['the longest title', { title: 'x'.repeat(LOGBOOK_TITLE_MAX) }, null],
    ['the longest message', { title: 'T', message: 'm'.repeat(LOGBOOK_MESSAGE_MAX) }, null],
    ['no title', {}, { title: K.titleRequired }],
    ['a blank title', { title: '   ' }, { title: K.titleRequired }],
    ['a title of control characters only', { title: '\u0000\u0007' }, { title: K.titleRequired }],
    ['a title one too long', { title: 'x'.repeat(LOGBOOK_TITLE_MAX + 1) }, { title: K.titleLength }],
    [
      'a message one too long',
      { title: 'T', message: 'm'.repeat(LOGBOOK_MESSAGE_MAX + 1) },
      { message: K.messageLength },
    ],
    ['a message that is not text', { title: 'T', message: 42 }, { message: K.messageLength }],
    [
      'too many attachments',
      { title: 'T', attachmentIds: Array.from({ length: LOGBOOK_ATTACHMENTS_MAX + 1 }, (_, i) => `f${i}`) },
      { attachmentIds: K.attachmentsMax },
    ],
    [
      'the same attachment twice',
      { title: 'T', attachmentIds: ['f1', 'f1'] },
      { attachmentIds: K.attachmentId },
    ],
    ['an empty attachment id', { title: 'T', attachmentIds: [''] }, { 'attachmentIds.0': K.attachmentId }],
  ])('%s', (_name, input, expected) => {
    expect(errorsOf(logBookNoteSchema, input)).toEqual(expected);
  });

  it('trims the title, keeps the message as typed but without control characters, defaults the rest', () => {
    expect(logBookNoteSchema.parse({ title: '  Jour 2 ', message: ' a\tb\r\nc\u0000d ' })).toEqual({
      title: 'Jour 2',
      message: ' a\tb\r\ncd ',
      attachmentIds: [],
    });
  });
});

describe('logBookRecordCreateSchema and logBookRecordUpdateSchema', () => {
  it.each<[string, unknown, Record<string, string> | null]>([
    ['about oneself', { title: 'T' }, null],
    ['a teacher about a student of a class', { title: 'T', studentId: 'u1', classId: 'c1' }, null],
    ['a null class', { title: 'T', classId: null }, null],
    ['an empty student id', { title: 'T', studentId: '' }, { studentId: K.attachmentId }],
  ])('create: %s', (_name, input, expected) => {
    expect(errorsOf(logBookRecordCreateSchema, input)).toEqual(expected);
  });

  it.each<[string, unknown, Record<string, string> | null]>([
    ['a new title', { title: 'New' }, null],
    ['only the attachments', { attachmentIds: [] }, null],
    ['only the message', { message: '' }, null],
    ['nothing', {}, { '': K.titleRequired }],
    ['a blank title', { title: ' ' }, { title: K.titleRequired }],
  ])('update: %s', (_name, input, expected) => {
    expect(errorsOf(logBookRecordUpdateSchema, input)).toEqual(expected);
  });
});

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('sniffAttachmentType', () => {
  it.each<[string, Uint8Array, string | null]>([
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg'],
    ['PNG', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'image/png'],
    ['GIF 87a', bytes('GIF87a', [1, 0]), 'image/gif'],
    ['GIF 89a', bytes('GIF89a', [1, 0]), 'image/gif'],
    ['PDF', bytes('%PDF-1.7\n'), 'application/pdf'],
    ['HTML calling itself a PNG', bytes('<html><script>'), null],
    ['a truncated PNG signature', bytes([0x89, 0x50, 0x4e, 0x47]), null],
    ['SVG (scripts inside: not allowed)', bytes('<svg xmlns="http://www.w3.org/2000/svg">'), null],
    ['nothing', bytes(), null],
    ['PDF signature not at the start', bytes(' %PDF-1.7'), null],
  ])('%s', (_name, input, expected) => {
    expect(sniffAttachmentType(input)).toBe(expected);
  });
});

describe('attachment limits', () => {
  it.each<[{ type: string; size: number }, 'fileType' | 'fileSize' | null]>([
    [{ type: 'image/png', size: 10 }, null],
    [{ type: 'image/jpg', size: 10 }, null],
    [{ type: 'application/pdf', size: ATTACHMENT_MAX_BYTES }, null],
    [{ type: 'application/pdf', size: ATTACHMENT_MAX_BYTES + 1 }, 'fileSize'],
    [{ type: 'image/svg+xml', size: 10 }, 'fileType'],
    [{ type: 'text/html', size: ATTACHMENT_MAX_BYTES + 1 }, 'fileType'],
    [{ type: '', size: 10 }, 'fileType'],
  ])('attachmentProblem(%o) = %s', (file, expected) => {
    expect(attachmentProblem(file)).toBe(expected);
  });

  it.each([
    ['image/JPG', 'image/jpeg'],
    ['image/png; charset=binary', 'image/png'],
    ['application/pdf', 'application/pdf'],
  ])('normaliseMimeType(%s) = %s', (declared, expected) => {
    expect(normaliseMimeType(declared)).toBe(expected);
  });

  it('files PDFs as pdf and the rest as images', () => {
    expect(attachmentFileType('application/pdf')).toBe('pdf');
    expect(attachmentFileType('image/gif')).toBe('image');
  });
});
