import { useId } from 'react';
import { useTranslation } from '../../lib/i18n';
import type { InstallOffer } from './install-rule';
import './install.css';

export interface InstallBannerProps {
  offer: Exclude<InstallOffer, null>;
  appName: string;
  onInstall(): void;
  onRefuse(): void;
}

/**
 * docs/product.md §4 install prompt: a non-modal banner at the bottom of the screen (it never takes the
 * focus away from what the learner is doing), a labelled region screen readers can find.
 */
export function InstallBanner({ offer, appName, onInstall, onRefuse }: InstallBannerProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section className="install-banner" aria-labelledby={titleId}>
      <h2 id={titleId} className="install-banner__title">
        {t('install.title')}
      </h2>
      <p className="install-banner__text">
        {offer === 'ios' ? t('install.iosText', { name: appName }) : t('install.text', { name: appName })}
      </p>
      <div className="install-banner__actions">
        {offer === 'prompt' ? (
          <>
            <button type="button" className="btn btn--primary" onClick={onInstall}>
              {t('install.accept')}
            </button>
            <button type="button" className="btn btn--ghost" onClick={onRefuse}>
              {t('install.refuse')}
            </button>
          </>
        ) : (
          <button type="button" className="btn btn--primary" onClick={onRefuse}>
            {t('install.iosDone')}
          </button>
        )}
      </div>
    </section>
  );
}
