import { Alert } from '../../../components/ui/Alert';
import { ButtonLink } from '../../../components/ui/Button';
import { errorKeys, useTranslation } from '../../../lib/i18n';

/** The lesson could not be read: say why, and offer the way back. */
export function LoadFailure({ code }: { code: string }) {
  const { t } = useTranslation();
  return (
    <div className="page page--narrow progression">
      <Alert tone="error" title={t(errorKeys(code).title)}>
        <p>{t(errorKeys(code).message)}</p>
      </Alert>
      <ButtonLink to="/">{t('common.backToDashboard')}</ButtonLink>
    </div>
  );
}
