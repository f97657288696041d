import { ButtonLink } from '../../../components/ui/Button';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';

export function ForbiddenPage() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <div className="page page--narrow centered">
      <svg className="illustration" viewBox="0 0 200 140" aria-hidden="true" focusable="false">
        <rect x="55" y="60" width="90" height="70" rx="12" fill="#1d4ed8" />
        <path d="M75 60V44a25 25 0 0 1 50 0v16" fill="none" stroke="#93a4c8" strokeWidth="10" />
        <circle cx="100" cy="90" r="9" fill="#fff" />
        <rect x="96" y="92" width="8" height="20" rx="4" fill="#fff" />
      </svg>
      <h1>{t('forbidden.title')}</h1>
      <p>{t('forbidden.text')}</p>
      {session.status === 'unauthenticated' ? (
        <ButtonLink to="/login">{t('forbidden.signIn')}</ButtonLink>
      ) : (
        <ButtonLink to="/">{t('common.backToDashboard')}</ButtonLink>
      )}
    </div>
  );
}
