import { lazy, Suspense, useState } from 'react';
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
