import { ButtonLink } from '../components/ui/Button';
import { useTranslation } from '../lib/i18n';
import { useRouteMeta } from './route-meta';

/** Placeholder for screens that later issues build: says so plainly and offers a way home. */
export function ComingSoon() {
  const { t } = useTranslation();
  const route = useRouteMeta();
  return (
    <div className="page page--narrow centered">
      <svg className="illustration" viewBox="0 0 200 120" aria-hidden="true" focusable="false">
        <rect x="20" y="30" width="160" height="80" rx="10" fill="#e0e7ff" />
        <rect x="40" y="50" width="70" height="10" rx="5" fill="#6366f1" />
        <rect x="40" y="70" width="110" height="8" rx="4" fill="#a5b4fc" />
        <rect x="40" y="86" width="90" height="8" rx="4" fill="#a5b4fc" />
        <circle cx="160" cy="30" r="18" fill="#fbbf24" />
        <path d="M160 20v11l7 5" stroke="#7c2d12" strokeWidth="3" fill="none" strokeLinecap="round" />
      </svg>
      <h1>{route ? t(route.titleKey) : t('comingSoon.title')}</h1>
      <p>{t('comingSoon.text')}</p>
      <ButtonLink to="/">{t('common.backHome')}</ButtonLink>
    </div>
  );
}
