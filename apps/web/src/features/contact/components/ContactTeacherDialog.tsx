import { zodResolver } from '@hookform/resolvers/zod';
import { contactSchema, type ContactInput } from '@parcours/domain/schemas';
import { useCallback, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { Dialog } from '../../../components/ui/Dialog';
import { FormField } from '../../../components/ui/FormField';
import { fieldProblems } from '../../../lib/api-errors';
import { useTranslation } from '../../../lib/i18n';
import { useContactTeachers } from '../api/contact-teachers';
import { contactFailure } from '../failure-text';
import { useCloseAfterSuccess } from '../use-close-after-success';
import '../../../components/ui/form.css';

export interface ContactTeacherDialogProps {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  classId: string;
  /** Shown in the dialog so the learner knows whose teachers get the message. */
  className: string;
}

type ContactFormValues = z.input<typeof contactSchema>;
const FORM_FIELDS = ['subject', 'message'] as const;

function ContactTeacherModal({
  classId,
  className,
  close,
}: {
  classId: string;
  className: string;
  close: () => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const mutation = useContactTeachers(classId);
  const [failure, setFailure] = useState<{ code: string; detail: string | null } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormValues, unknown, ContactInput>({
    resolver: zodResolver(contactSchema),
    // SPEC §5: the message requirement shows as soon as the field is left.
    mode: 'onBlur',
    defaultValues: { subject: '', message: '' },
  });
  useCloseAfterSuccess(mutation.isSuccess, close);

  const onValid = async (values: ContactInput) => {
    setFailure(null);
    try {
      await mutation.mutateAsync(values);
    } catch (error) {
      setFailure(contactFailure(error, FORM_FIELDS));
      // A field the form shows: its message goes under it.
      for (const problem of fieldProblems(error)) {
        const field = FORM_FIELDS.find((name) => name === problem.field);
        if (field) setError(field, { message: problem.key }, { shouldFocus: true });
      }
    }
  };

  const message = (field: (typeof FORM_FIELDS)[number]) => {
    const key = errors[field]?.message;
    return key ? t(key) : undefined;
  };
  const sent = mutation.isSuccess;

  return (
    <Dialog
      isOpen
      title={t('contact.teacher.title')}
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
            <Button type="submit" form={formId} disabled={isSubmitting}>
              {isSubmitting ? t('contact.sending') : t('contact.send')}
            </Button>
          </>
        )
      }
    >
      {sent ? (
        <Alert tone="success">{t('contact.sent')}</Alert>
      ) : (
        <form id={formId} className="form" noValidate onSubmit={(event) => void handleSubmit(onValid)(event)}>
          <p>{t('contact.teacher.intro', { className })}</p>
          {failure ? (
            <Alert tone="error" title={t(`errors.${failure.code}.title`)}>
              {failure.detail ? <p>{t(failure.detail)}</p> : null}
            </Alert>
          ) : null}
          <FormField label={t('contact.subject')} error={message('subject')}>
            {(control) => (
              // The learner opened the dialog to write: start in the first field (a dialog's first
              // focus, as the ARIA dialog pattern asks, not a page's).
              <input
                {...control}
                {...register('subject')}
                className="field__input"
                type="text"
                // eslint-disable-next-line jsx-a11y/no-autofocus -- focus moves into a dialog the learner opened
                autoFocus
              />
            )}
          </FormField>
          <FormField label={t('contact.message')} error={message('message')}>
            {(control) => (
              <textarea {...control} {...register('message')} className="field__input" rows={6} required />
            )}
          </FormField>
        </form>
      )}
    </Dialog>
  );
}

/**
 * SPEC §2 "contact a user" dialog: object and message to the teachers of a class; errors show
 * the code's title, success 'Message envoyé' then the dialog closes after 1.5 s (SPEC §8).
 * Mounted only while open, so each opening starts with an empty form.
 */
export function ContactTeacherDialog({
  isOpen,
  onOpenChange,
  classId,
  className,
}: ContactTeacherDialogProps) {
  const close = useCallback(() => onOpenChange(false), [onOpenChange]);
  return isOpen ? <ContactTeacherModal classId={classId} className={className} close={close} /> : null;
}
