import { useTranslation } from '../../lib/i18n';
import { reloadToNewVersion, useNewVersionAvailable } from './new-version';
import './new-version.css';

/** The shell's reload offer; a status message, so it is announced without stealing the focus. */
export function NewVersionBanner() {
  const { t } = useTranslation();
  const available = useNewVersionAvailable();
  if (!available) return null;
  return (
    <div className="new-version" role="status">
      <p className="new-version__text">{t('newVersion.message')}</p>
      <button type="button" className="btn btn--primary" onClick={reloadToNewVersion}>
        {t('newVersion.reload')}
      </button>
    </div>
  );
}
