import { FILE_NAME_MAX } from '@parcours/domain/constants';
import { documentationRequestSchema } from '@parcours/domain/schemas';
import { useCallback, useId, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { Dialog } from '../../../components/ui/Dialog';
import { FormField } from '../../../components/ui/FormField';
import { apiBase } from '../../../lib/api-base';
import { errorKeys, useTranslation, keyFromData } from '../../../lib/i18n';
import { useRequestDocumentation } from '../api/request-documentation';
import { contactFailure } from '../failure-text';
import { useCloseAfterSuccess } from '../use-close-after-success';
import '../../../components/ui/form.css';
import '../contact.css';

/** A file a `medias-by-mail` row offers (AppFile id, display name, MIME type). */
export interface DocumentationFile {
  id: string;
  name: string;
  type: string;
  /** The download URL the API gave (signed for the learner); built from the id otherwise. */
  url?: string;
}

export interface DocumentationDialogProps {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  files: readonly DocumentationFile[];
  /** Optional heading of the row (its title), shown above the files. */
  title?: string;
}

/** docs/product.md §9: file names are shortened to 56 characters. */
function shortName(name: string): string {
  return name.length > FILE_NAME_MAX ? `${name.slice(0, FILE_NAME_MAX - 1)}…` : name;
}

function kindOf(type: string): 'image' | 'pdf' | 'audio' | 'video' | 'file' {
  if (type.startsWith('image/')) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return 'file';
}

function FilePreview({ file }: { file: DocumentationFile }) {
  const { t } = useTranslation();
  const kind = kindOf(file.type);
  return (
    <span className="doc-file__preview" aria-hidden="true">
      {kind === 'image' ? (
        <img
          src={file.url ?? `${apiBase()}/files/${encodeURIComponent(file.id)}/download`}
          alt=""
          loading="lazy"
        />
      ) : (
        <span className={`doc-file__icon doc-file__icon--${kind}`}>
          {t(`contact.documentation.kind.${kind}`)}
        </span>
      )}
    </span>
  );
}

function DocumentationModal({
  files,
  title,
  close,
}: {
  files: readonly DocumentationFile[];
  title?: string | undefined;
  close: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const mutation = useRequestDocumentation();
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set(files.map((file) => file.id)));
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ code: string; detail: string | null } | null>(null);
  useCloseAfterSuccess(mutation.isSuccess, close);

  const toggle = (fileId: string, on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(fileId);
      else next.delete(fileId);
      return next;
    });
    setProblem(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    // The route's own rule: at least one file (docs/product.md §5 'Des données sont manquantes…').
    const checked = documentationRequestSchema.safeParse({
      fileIds: files.map((file) => file.id).filter((fileId) => selected.has(fileId)),
      ...(message.trim() ? { message } : {}),
    });
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message ?? 'validation.contact.missingData');
      return;
    }
    setProblem(null);
    try {
      await mutation.mutateAsync(checked.data);
    } catch (error) {
      setFailure(contactFailure(error, ['message']));
    }
  };

  const sent = mutation.isSuccess;
  const formId = `${id}-form`;

  return (
    <Dialog
      isOpen
      title={t('contact.documentation.title')}
      onDismiss={close}
      tone={sent ? 'success' : 'info'}
      actions={
        sent ? (
          <Button onClick={close}>{t('contact.close')}</Button>
        ) : (
          <>
            <Button variant="ghost" onClick={close}>
              {t('contact.cancel')}
            </Button>
            <Button type="submit" form={formId} disabled={mutation.isPending}>
              {mutation.isPending ? t('contact.sending') : t('contact.documentation.send')}
            </Button>
          </>
        )
      }
    >
      {sent ? (
        <Alert tone="success">{t('contact.documentation.sent')}</Alert>
      ) : (
        <form id={formId} className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
          <p>{t('contact.documentation.intro')}</p>
          {failure ? (
            <Alert tone="error" title={t(errorKeys(failure.code).title)}>
              {failure.detail ? <p>{t(keyFromData(failure.detail))}</p> : null}
            </Alert>
          ) : null}
          <fieldset aria-describedby={problem ? `${id}-files-error` : undefined}>
            <legend>{title ?? t('contact.documentation.files')}</legend>
            <ul className="doc-files">
              {files.map((file) => (
                <li key={file.id} className="doc-file">
                  <input
                    id={`${id}-${file.id}`}
                    type="checkbox"
                    checked={selected.has(file.id)}
                    onChange={(event) => toggle(file.id, event.target.checked)}
                  />
                  <label htmlFor={`${id}-${file.id}`} className="doc-file__label">
                    <FilePreview file={file} />
                    <span className="doc-file__name" title={file.name}>
                      {shortName(file.name)}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
            {problem ? (
              <p id={`${id}-files-error`} className="field__error" role="alert">
                {t(keyFromData(problem))}
              </p>
            ) : null}
          </fieldset>
          <FormField label={t('contact.documentation.message')}>
            {(control) => (
              <textarea
                {...control}
                className="field__input"
                rows={3}
                value={message}
                onChange={(event) => setMessage(event.target.value)}
              />
            )}
          </FormField>
        </form>
      )}
    </Dialog>
  );
}

/**
 * docs/product.md §2 "receive documentation by e-mail": previews of the row's files (all ticked), an
 * optional message, and Send; the files go to the learner's own address, and the dialog closes
 * 1.5 s after success (docs/product.md §8). Mounted only while open, so each opening starts afresh.
 */
export function DocumentationDialog({ isOpen, onOpenChange, files, title }: DocumentationDialogProps) {
  const close = useCallback(() => onOpenChange(false), [onOpenChange]);
  return isOpen ? <DocumentationModal files={files} title={title} close={close} /> : null;
}
