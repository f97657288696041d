import { CONTACT_FLAG_RESET_MS } from '@parcours/domain/constants';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { useTranslation } from '../../../lib/i18n';

// The dialog (form, schema, modal) loads on first use: most learners never write to a teacher.
const ContactTeacherDialog = lazy(() =>
  import('./ContactTeacherDialog').then((m) => ({ default: m.ContactTeacherDialog })),
);

interface ContactTeacherActionProps {
  classId: string;
  className: string;
}

/** The "contact the teachers" button of a class card, and its dialog. */
export function ContactTeacherAction({ classId, className }: ContactTeacherActionProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  // docs/product.md §9 contact flag reset: 100 ms after the dialog closes, the flag that keeps it
  // mounted is reset, so nothing of the form outlives its closing.
  useEffect(() => {
    if (open || !requested) return undefined;
    const timer = setTimeout(() => setRequested(false), CONTACT_FLAG_RESET_MS);
    return () => clearTimeout(timer);
  }, [open, requested]);
  return (
    <>
      <Button
        variant="secondary"
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
      >
        {t('contact.teacher.open')} <span className="sr-only">{className}</span>
      </Button>
      {requested ? (
        <Suspense fallback={null}>
          <ContactTeacherDialog
            isOpen={open}
            onOpenChange={setOpen}
            classId={classId}
            className={className}
          />
        </Suspense>
      ) : null}
    </>
  );
}
