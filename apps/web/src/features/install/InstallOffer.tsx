import { lazy, Suspense } from 'react';
import { useTenant } from '../../lib/tenant';
import { useTranslation } from '../../lib/i18n';
import { useInstallOffer } from './use-install-offer';

// Most visits never show it: the banner's code loads only when there is something to offer.
const InstallBanner = lazy(() => import('./InstallBanner').then((m) => ({ default: m.InstallBanner })));

/** Where the shell shows the install banner (docs/product.md §4, §9). */
export function InstallOffer() {
  const { t } = useTranslation();
  const tenant = useTenant();
  const { offer, install, refuse } = useInstallOffer();
  if (!offer) return null;
  return (
    <Suspense fallback={null}>
      <InstallBanner
        offer={offer}
        appName={tenant?.attributes.name || t('app.fallbackTitle')}
        onInstall={() => void install()}
        onRefuse={refuse}
      />
    </Suspense>
  );
}
