import { Alert } from '../../../../components/ui/Alert';
import { Button } from '../../../../components/ui/Button';
import { errorCodeOf } from '../../../../lib/api-errors';
import { errorKeys, useTranslation } from '../../../../lib/i18n';
import type { CertificationItem } from '../api/get-certification-items';
import { useDownloadDocument } from '../api/download-document';

/**
 * The certificate PDF and, beside it, the same achievement as an Open Badges credential: the
 * signed JWT, and the file with an embedded proof that a wallet imports (decision 0058). Buttons
 * rather than links: each fetches its file with the learner's token, then hands it to the browser.
 */
export function DocumentLinks({ item }: { item: CertificationItem }) {
  const { t } = useTranslation();
  const download = useDownloadDocument();
  const baseName = item.certificationRef ?? item.course.title;
  const course = item.course.title;
  const lessonId = item.lessonId;

  return (
    <div className="certificates__links">
      {item.certificateUrl ? (
        <Button
          variant="secondary"
          disabled={download.isPending}
          aria-label={t(`certificates.downloadPdfFor.${item.wording}`, { course })}
          onClick={() =>
            download.mutate({ url: item.certificateUrl as string, kind: 'pdf', baseName, lessonId })
          }
        >
          {t(`certificates.downloadPdf.${item.wording}`)}
        </Button>
      ) : null}
      {item.credentialUrl ? (
        <Button
          variant="ghost"
          disabled={download.isPending}
          aria-label={t('certificates.downloadCredentialFor', { course })}
          onClick={() =>
            download.mutate({ url: item.credentialUrl as string, kind: 'credential', baseName, lessonId })
          }
        >
          {t('certificates.downloadCredential')}
        </Button>
      ) : null}
      {item.credentialUrl ? (
        <Button
          variant="ghost"
          disabled={download.isPending}
          aria-label={t('certificates.downloadWalletFor', { course })}
          onClick={() =>
            download.mutate({ url: item.credentialUrl as string, kind: 'wallet', baseName, lessonId })
          }
        >
          {t('certificates.downloadWallet')}
        </Button>
      ) : null}
      {download.isError ? (
        <Alert tone="error" title={t(errorKeys(errorCodeOf(download.error)).title)}>
          {t('certificates.downloadFailed')}
        </Alert>
      ) : null}
    </div>
  );
}
