import { zodResolver } from '@hookform/resolvers/zod';
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_MAX_BYTES,
  LOGBOOK_ATTACHMENTS_MAX,
  LOGBOOK_MESSAGE_KEYS,
  LOGBOOK_MESSAGE_MAX,
  LOGBOOK_TITLE_MAX,
  attachmentProblem,
  logBookNoteSchema,
  type LogBookNote,
  type LogBookNoteInput,
} from '@parcours/domain/logbook';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Alert } from '../../../../components/ui/Alert';
import { Button } from '../../../../components/ui/Button';
import { Dialog } from '../../../../components/ui/Dialog';
import { FormField } from '../../../../components/ui/FormField';
import { ApiError } from '../../../../lib/api-client';
import { errorCodeOf, quotaKeyOf } from '../../../../lib/api-errors';
import { type TFunction, errorKeys, useTranslation, keyFromData } from '../../../../lib/i18n';
import type { Attachment, LogbookNote } from '../api/get-log-book-records';
import { useSaveLogBookRecord } from '../api/save-log-book-record';
import { uploadFile } from '../api/upload-file';
import '../../../../components/ui/form.css';

/** A file chosen in this dialog: refused before sending, on its way, or stored. */
interface PendingFile {
  key: string;
  name: string;
  status: 'uploading' | 'done' | 'error';
  error?: string;
  attachment?: Attachment;
}

const FIELDS = ['title', 'message'] as const;
const MAX_MB = Math.round(ATTACHMENT_MAX_BYTES / (1024 * 1024));

/** The first problem of a failed call, as catalogue text: our field keys, else the code's title. */
function failureText(error: unknown, t: TFunction): string {
  if (error instanceof ApiError) {
    const first = (error.body as { errors?: { detail?: unknown }[] } | undefined)?.errors?.[0];
    if (typeof first?.detail === 'string' && first.detail.startsWith('logbook.'))
      return t(keyFromData(first.detail), { max: MAX_MB });
  }
  // A quota reached (issue 29): the server names the catalogue key of the limit.
  const quota = quotaKeyOf(error);
  if (quota) return t(keyFromData(quota));
  return t(errorKeys(errorCodeOf(error)).title);
}

/** Field problems the server found, for the fields this form shows. */
function serverFieldErrors(error: unknown): { field: (typeof FIELDS)[number]; key: string }[] {
  if (!(error instanceof ApiError)) return [];
  const errors =
    (error.body as { errors?: { detail?: unknown; source?: { pointer?: unknown } }[] } | undefined)?.errors ??
    [];
  return errors.flatMap((e) => {
    const field = FIELDS.find((f) => e.source?.pointer === `/${f}`);
    return field && typeof e.detail === 'string' && e.detail.startsWith('logbook.')
      ? [{ field, key: e.detail }]
      : [];
  });
}

interface NoteDialogProps {
  /** The note to edit, or null to add one. */
  note: LogbookNote | null;
  onClose: () => void;
}

/**
 * docs/product.md §2 Logbook "Add a note (dialog); edit (dialog)": title, message and attachments. Files
 * are checked (type, size) as soon as they are chosen and uploaded at once, each with its own
 * state, so a refused file never blocks the others. Mount it only while open: each opening
 * starts from the note as saved.
 */
export function NoteDialog({ note, onClose }: NoteDialogProps) {
  const { t } = useTranslation();
  const formId = useId();
  const fileHintId = useId();
  const fileInputId = useId();
  const save = useSaveLogBookRecord();
  const [kept, setKept] = useState<Attachment[]>(note?.attachments ?? []);
  const [pending, setPending] = useState<PendingFile[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  // Uploads still running when the dialog closes are abandoned. Made in the effect so that a
  // remount (React's strict mode) gets a live controller, not the one its cleanup aborted.
  const uploads = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    uploads.current = controller;
    return () => controller.abort();
  }, []);

  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<LogBookNoteInput, unknown, LogBookNote>({
    resolver: zodResolver(logBookNoteSchema),
    defaultValues: { title: note?.title ?? '', message: note?.message ?? '', attachmentIds: [] },
  });
  const messageLength = (useWatch({ control, name: 'message' }) ?? '').length;

  const uploading = pending.some((p) => p.status === 'uploading');
  const attachedCount = kept.length + pending.filter((p) => p.status !== 'error').length;

  const update = (key: string, patch: Partial<PendingFile>) =>
    setPending((list) => list.map((p) => (p.key === key ? { ...p, ...patch } : p)));

  const onFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = [...(event.target.files ?? [])];
    // Cleared so that choosing the same file again after removing it still fires a change.
    event.target.value = '';
    let room = LOGBOOK_ATTACHMENTS_MAX - attachedCount;
    const added: PendingFile[] = [];
    for (const file of chosen) {
      const key = `${file.name}-${file.size}-${Math.random().toString(36).slice(2)}`;
      const problem = attachmentProblem(file);
      if (problem) {
        added.push({
          key,
          name: file.name,
          status: 'error',
          error: t(LOGBOOK_MESSAGE_KEYS[problem], { max: MAX_MB }),
        });
        continue;
      }
      if (room <= 0) {
        added.push({
          key,
          name: file.name,
          status: 'error',
          error: t(LOGBOOK_MESSAGE_KEYS.attachmentsMax, { max: LOGBOOK_ATTACHMENTS_MAX }),
        });
        continue;
      }
      room -= 1;
      added.push({ key, name: file.name, status: 'uploading' });
      const signal = uploads.current?.signal;
      uploadFile(file, signal).then(
        (attachment) => update(key, { status: 'done', attachment }),
        (error: unknown) => {
          if (!signal?.aborted) update(key, { status: 'error', error: failureText(error, t) });
        },
      );
    }
    setPending((list) => [...list, ...added]);
  };

  const onValid = async (values: LogBookNote) => {
    setFailure(null);
    const attachmentIds = [
      ...kept.map((a) => a.id),
      ...pending.flatMap((p) => (p.status === 'done' && p.attachment ? [p.attachment.id] : [])),
    ];
    try {
      await save.mutateAsync({
        id: note?.id ?? null,
        note: { ...values, attachmentIds },
        ...(note
          ? {
              before: {
                title: note.title,
                message: note.message,
                attachmentIds: (note.attachments ?? []).map((a) => a.id),
              },
            }
          : {}),
      });
      onClose();
    } catch (error) {
      const fields = serverFieldErrors(error);
      for (const { field, key } of fields) setError(field, { message: key }, { shouldFocus: true });
      if (fields.length === 0) setFailure(failureText(error, t));
    }
  };

  const fieldError = (field: (typeof FIELDS)[number]) => {
    const key = errors[field]?.message;
    return key
      ? t(keyFromData(key), { max: field === 'title' ? LOGBOOK_TITLE_MAX : LOGBOOK_MESSAGE_MAX })
      : undefined;
  };

  return (
    <Dialog
      isOpen
      title={note ? t('logbook.editTitle') : t('logbook.addTitle')}
      onDismiss={onClose}
      className="logbook-dialog"
      actions={
        <>
          <Button variant="ghost" onClick={onClose}>
            {t('logbook.cancel')}
          </Button>
          <Button type="submit" form={formId} disabled={isSubmitting || uploading}>
            {isSubmitting ? t('logbook.saving') : t('logbook.save')}
          </Button>
        </>
      }
    >
      <form id={formId} className="form" noValidate onSubmit={(event) => void handleSubmit(onValid)(event)}>
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <FormField label={t('logbook.fieldTitle')} error={fieldError('title')}>
          {(field) => (
            // The learner opened the dialog to write: the dialog starts in the title.
            <input
              {...field}
              {...register('title')}
              className="field__input"
              type="text"
              // eslint-disable-next-line jsx-a11y/no-autofocus -- focus moves into a dialog the learner opened
              autoFocus
              required
            />
          )}
        </FormField>
        <FormField
          label={t('logbook.fieldMessage')}
          error={fieldError('message')}
          hint={t('logbook.messageCounter', { count: messageLength, max: LOGBOOK_MESSAGE_MAX })}
        >
          {(field) => <textarea {...field} {...register('message')} className="field__input" rows={8} />}
        </FormField>

        <fieldset className="logbook-files">
          <legend className="field__label">{t('logbook.attachments')}</legend>
          {kept.length > 0 ? (
            <ul className="logbook-files__list">
              {kept.map((file) => (
                <li key={file.id} className="logbook-files__item">
                  <span>{file.name}</span>
                  <Button
                    variant="ghost"
                    onClick={() => setKept((list) => list.filter((f) => f.id !== file.id))}
                  >
                    {t('logbook.removeAttachment', { name: file.name })}
                  </Button>
                </li>
              ))}
            </ul>
          ) : null}
          <label className="logbook-files__label" htmlFor={fileInputId}>
            {t('logbook.addFiles')}
          </label>
          <input
            id={fileInputId}
            className="logbook-files__input"
            type="file"
            multiple
            accept={ATTACHMENT_ACCEPT}
            aria-describedby={fileHintId}
            onChange={onFiles}
          />
          <p id={fileHintId} className="field__hint">
            {t('logbook.filesHint', { max: MAX_MB, count: LOGBOOK_ATTACHMENTS_MAX })}
          </p>
          {pending.length > 0 ? (
            <ul className="logbook-files__list" aria-live="polite">
              {pending.map((file) => (
                <li key={file.key} className={`logbook-files__item logbook-files__item--${file.status}`}>
                  <span>{file.name}</span>{' '}
                  {file.status === 'error' ? (
                    <span className="field__error">{file.error}</span>
                  ) : (
                    <span>
                      {file.status === 'uploading' ? t('logbook.uploading') : t('logbook.uploaded')}
                    </span>
                  )}
                  {file.status !== 'uploading' ? (
                    <Button
                      variant="ghost"
                      onClick={() => setPending((list) => list.filter((p) => p.key !== file.key))}
                    >
                      {t('logbook.removeAttachment', { name: file.name })}
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
        </fieldset>
      </form>
    </Dialog>
  );
}
