import { Dialog } from '../../../components/ui/Dialog';
import { exists, useTranslation } from '../../../lib/i18n';
import { errorTextKeys } from '../progression-model';

interface ErrorDialogProps {
  /** A docs/product.md §8 catalogue code, or null when closed. */
  code: string | null;
  onClose: () => void;
}

/** docs/product.md §8 player errors: the code's title and text, one button (default 'OK'), then the caller moves on. */
export function ErrorDialog({ code, onClose }: ErrorDialogProps) {
  const { t } = useTranslation();
  const keys = errorTextKeys(code ?? 'UNDEFINED', exists);
  return (
    <Dialog
      isOpen={code !== null}
      role="alertdialog"
      tone="danger"
      title={t(keys.title)}
      actions={
        <button type="button" className="btn btn--primary" onClick={onClose}>
          {keys.button ? t(keys.button) : t('progression.error.ok')}
        </button>
      }
    >
      <p>{t(keys.message)}</p>
    </Dialog>
  );
}
