import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';

/** Loading and failure states shared by the Levels and Jobs panels. */
export function PanelStatus({ isError, onRetry }: { isError: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  if (!isError) return <Spinner label={t('common.loading')} />;
  return (
    <Alert tone="error" title={t('dashboard.loadError')}>
      <Button variant="secondary" onClick={onRetry}>
        {t('dashboard.retry')}
      </Button>
    </Alert>
  );
}

/** A tab's real empty state: a picture and what will appear here. */
export function PanelEmpty({ text }: { text: string }) {
  return (
    <div className="dashboard__empty">
      <svg className="illustration" viewBox="0 0 200 120" aria-hidden="true" focusable="false">
        <circle cx="100" cy="55" r="38" fill="#e0e7ff" />
        <circle cx="100" cy="55" r="26" fill="#fff" stroke="#a5b4fc" strokeWidth="4" />
        <path d="M80 88l-10 28 14-6 8 10 6-26M120 88l10 28-14-6-8 10-6-26" fill="#c7d2fe" />
      </svg>
      <p>{text}</p>
    </div>
  );
}
