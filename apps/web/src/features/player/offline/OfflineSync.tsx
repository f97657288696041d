import { useEffect } from 'react';
import { useSession } from '../../../lib/session';
import { answerQueue, keepAhead, startOfflineSync, useOfflineStatus } from './device';
import { OfflineBanner } from './OfflineBanner';

/**
 * Mounted by the app shell once a learner is signed in (decision 0020): answers given offline are
 * sent when the connection returns whatever screen is open, not only the player's, and what the
 * send did (sending, refused answers and why) is said there. The lessons unlocked and not begun
 * are kept ahead on the device at the same time. The player shows its own banner, so
 * the shell hides this one on the player's screen (`showBanner`).
 */
export function OfflineSync({ showBanner }: { showBanner: boolean }) {
  const status = useOfflineStatus();
  const userId = useSession().user?._id ?? null;
  useEffect(() => startOfflineSync(), []);
  // The lessons the learner may begin next go on the device too (decision 0020).
  useEffect(() => {
    if (userId && status.online) void keepAhead(userId);
  }, [userId, status.online]);
  return showBanner ? (
    <div className="offline-sync">
      <OfflineBanner status={status} onDismissRefused={() => void answerQueue.dismissRefused()} />
    </div>
  ) : null;
}
