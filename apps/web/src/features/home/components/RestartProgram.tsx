import { useState } from 'react';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { Dialog } from '../../../components/ui/Dialog';
import { errorCodeOf } from '../../../lib/api-errors';
import { errorKeys, useTranslation } from '../../../lib/i18n';
import { useResetProgram } from '../api/reset-program';

/**
 * Issue 12: restarting a finished program, behind a confirmation that says what starts again
 * (lessons, progress, scores) and what is kept (earlier answers archived, XP earned).
 */
export function RestartProgram({ classProgramId, name }: { classProgramId: string; name: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const reset = useResetProgram();
  const failure = reset.isError ? errorCodeOf(reset.error) : null;

  const confirm = async () => {
    try {
      await reset.mutateAsync(classProgramId);
      setOpen(false);
    } catch {
      // Said in the dialog below.
    }
  };

  return (
    <>
      <Button variant="secondary" className="program__restart" onClick={() => setOpen(true)}>
        {t('home.restart.open')} <span className="sr-only">{name}</span>
      </Button>
      <Dialog
        isOpen={open}
        role="alertdialog"
        tone="warning"
        title={t('home.restart.title', { name })}
        onDismiss={reset.isPending ? undefined : () => setOpen(false)}
        actions={
          <>
            <Button
              variant="secondary"
              data-autofocus
              onClick={() => setOpen(false)}
              disabled={reset.isPending}
            >
              {t('home.restart.cancel')}
            </Button>
            <Button onClick={() => void confirm()} disabled={reset.isPending}>
              {reset.isPending ? t('home.restart.sending') : t('home.restart.confirm')}
            </Button>
          </>
        }
      >
        <p>{t('home.restart.what')}</p>
        <p>{t('home.restart.kept')}</p>
        {failure ? (
          <Alert tone="error" title={t(errorKeys(failure).title)}>
            <p>{t(errorKeys(failure).message)}</p>
          </Alert>
        ) : null}
      </Dialog>
    </>
  );
}
