import { useTranslation } from '../../../lib/i18n';

export type EmptyVariant = 'welcome' | 'filtered' | 'past' | 'smallScreen';

interface EmptyStateProps {
  variant: EmptyVariant;
  name: string;
  emailNotifications: boolean;
  demoVideoUrl: string | null;
  onClearFilters: () => void;
}

/** docs/product.md §2 empty home: picture, welcome text by situation, optional demo video. */
export function EmptyState({
  variant,
  name,
  emailNotifications,
  demoVideoUrl,
  onClearFilters,
}: EmptyStateProps) {
  const { t } = useTranslation();
  return (
    <div className="empty card centered">
      <svg className="illustration" viewBox="0 0 220 140" aria-hidden="true" focusable="false">
        <rect x="30" y="24" width="160" height="100" rx="12" fill="#eef2ff" />
        <rect x="48" y="44" width="80" height="10" rx="5" fill="#6366f1" />
        <rect x="48" y="64" width="124" height="8" rx="4" fill="#c7d2fe" />
        <rect x="48" y="80" width="104" height="8" rx="4" fill="#c7d2fe" />
        <rect x="48" y="100" width="60" height="12" rx="6" fill="#1d4ed8" />
        <circle cx="180" cy="30" r="16" fill="#fde68a" />
        <path d="M174 30l4 4 8-8" stroke="#92400e" strokeWidth="3" fill="none" strokeLinecap="round" />
      </svg>
      {variant === 'welcome' ? (
        <>
          <h2>{t('home.empty.welcomeTitle', { name })}</h2>
          <p>{emailNotifications ? t('home.empty.welcomeEmail') : t('home.empty.welcomeNoEmail')}</p>
        </>
      ) : null}
      {variant === 'smallScreen' ? (
        <>
          <h2>{t('home.empty.smallScreenTitle')}</h2>
          <p>{t('home.empty.smallScreenText')}</p>
        </>
      ) : null}
      {variant === 'past' ? (
        <>
          <h2>{t('home.empty.pastTitle')}</h2>
          <p>{t('home.empty.pastText')}</p>
        </>
      ) : null}
      {variant === 'filtered' ? (
        <>
          <h2>{t('home.empty.filteredTitle')}</h2>
          <p>{t('home.empty.filteredText')}</p>
          <button type="button" className="btn btn--secondary" onClick={onClearFilters}>
            {t('home.filters.clear')}
          </button>
        </>
      ) : null}
      {demoVideoUrl && variant === 'welcome' ? (
        <p>
          <a href={demoVideoUrl} target="_blank" rel="noopener noreferrer">
            {t('home.empty.demoVideo')} <span className="sr-only">{t('common.newTab')}</span>
          </a>
        </p>
      ) : null}
    </div>
  );
}
