import type { CertificationWording } from '@parcours/domain/certification';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { errorCodeOf } from '../../../lib/api-errors';
import { errorKeys, useTranslation } from '../../../lib/i18n';
import { useTenant } from '../../../lib/tenant';
import { useCertificationItems } from './api/get-certification-items';
import { CertificatesTable } from './components/CertificatesTable';
import './certificates.css';

/**
 * The dashboard's certificates tab (docs/product.md §2 Certificates): the learner's certifying lessons in a
 * table, with the certificate PDF and the Open Badges credential when the link rule allows (SPEC
 * §4). The tenant's wording (certification or attestation, docs/product.md §9) names the tab's texts.
 * Rendered by the dashboard shell inside its tab panel, under the shell's <h2>.
 */
export function CertificatesTab() {
  const { t } = useTranslation();
  const tenant = useTenant();
  const wording: CertificationWording =
    tenant?.attributes.settings.certification?.type === 'attestation' ? 'attestation' : 'certification';
  const items = useCertificationItems();

  if (items.isPending) return <Spinner label={t('common.loading')} />;
  if (items.isError) {
    return (
      <Alert tone="error" title={t(errorKeys(errorCodeOf(items.error)).title)}>
        <Button variant="secondary" onClick={() => void items.refetch()}>
          {t('common.retry')}
        </Button>
      </Alert>
    );
  }
  if (items.data.length === 0)
    return <p className="certificates__empty">{t(`certificates.empty.${wording}`)}</p>;
  return <CertificatesTable items={items.data} wording={wording} />;
}
