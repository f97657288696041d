import { Alert } from '../../../components/ui/Alert';
import { ButtonLink } from '../../../components/ui/Button';
import { errorPageOf, ErrorPageRedirect } from '../../../lib/error-page';
import { errorKeys, useTranslation } from '../../../lib/i18n';

/**
 * The lesson could not be read: a lesson that does not exist, or not the learner's, is the 404 or
 * 403 screen (docs/product.md §2 `/{code}`); any other failure says why and offers the way back.
 */
export function LoadFailure({ code, error }: { code: string; error?: unknown }) {
  const { t } = useTranslation();
  const page = errorPageOf(error);
  if (page) return <ErrorPageRedirect code={page} />;
  return (
    <div className="page page--narrow progression">
      <Alert tone="error" title={t(errorKeys(code).title)}>
        <p>{t(errorKeys(code).message)}</p>
      </Alert>
      <ButtonLink to="/">{t('common.backToDashboard')}</ButtonLink>
    </div>
  );
}
