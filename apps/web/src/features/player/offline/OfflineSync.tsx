import { useEffect } from 'react';
import { answerQueue, startOfflineSync, useOfflineStatus } from './device';
import { OfflineBanner } from './OfflineBanner';

/**
 * Mounted by the app shell once a learner is signed in (decision 0020): answers given offline are
 * sent when the connection returns whatever screen is open, not only the player's, and what the
 * send did (sending, refused answers and why) is said there. The player shows its own banner, so
 * the shell hides this one on the player's screen (`showBanner`).
 */
export function OfflineSync({ showBanner }: { showBanner: boolean }) {
  const status = useOfflineStatus();
  useEffect(() => startOfflineSync(), []);
  return showBanner ? (
    <div className="offline-sync">
      <OfflineBanner status={status} onDismissRefused={() => void answerQueue.dismissRefused()} />
    </div>
  ) : null;
}
