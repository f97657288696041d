import { Button } from '../../../components/ui/Button';
import { errorKeys, useTranslation } from '../../../lib/i18n';
import type { OfflineStatus } from './device';
import './offline.css';

/**
 * What the learner must know about the connection (issue 12): offline, how many answers wait on
 * this device, that they are being sent, and any the server refused with why. A status region
 * (read politely, never stealing focus); a refusal is an alert. Renders nothing when all is well
 * (the player keeps its own live region for page moves).
 */
export function OfflineBanner({
  status,
  onDismissRefused,
}: {
  status: OfflineStatus;
  onDismissRefused: () => void;
}) {
  const { t } = useTranslation();
  const { online, waiting, sending, refused } = status;
  const message = !online
    ? t('offline.banner.offline', { count: waiting })
    : sending
      ? t('offline.banner.sending', { count: waiting })
      : waiting > 0
        ? t('offline.banner.waiting', { count: waiting })
        : null;
  if (!message && refused.length === 0) return null;
  return (
    <>
      {message ? (
        <div role="status" className="offline-banner" data-state={online ? 'online' : 'offline'}>
          <p className="offline-banner__text">{message}</p>
        </div>
      ) : null}
      {refused.length > 0 ? (
        <div role="alert" className="offline-banner offline-banner--refused">
          <p className="offline-banner__text">{t('offline.refused.title', { count: refused.length })}</p>
          <ul>
            {refused.map((r) => (
              <li key={r.seq}>
                {t('offline.refused.item', {
                  title: r.title || t('offline.untitled'),
                  reason: t(errorKeys(r.code).title),
                })}
              </li>
            ))}
          </ul>
          <Button variant="secondary" onClick={onDismissRefused}>
            {t('offline.refused.dismiss')}
          </Button>
        </div>
      ) : null}
    </>
  );
}
