import { ErrorPageRedirect } from '../../lib/error-page';
import { PreviewPage } from '../../features/player/components/PreviewPage';
import { PlayerSlotsContext } from '../../features/player/player-slots';
import { isSandbox } from '../../lib/sandbox';
import { useSession } from '../../lib/session';
import { playerSlots } from './PlayerScreen';

// Content HTML is cleaned before it renders: this screen's loader waits for the cleaner (decision 0033).
export { sanitizerReady } from '../../lib/sanitize-html';

/**
 * docs/product.md §2 /preview, for administrators only (§6), or in sandbox mode where nobody is signed in
 * and nothing is written (decision 0011): anyone else gets the restricted-access page.
 */
export function PreviewScreen() {
  const { user } = useSession();
  const admin = user?.profile.roles.some((role) => role === 'admin' || role === 'superadmin') ?? false;
  if (!admin && !isSandbox()) return <ErrorPageRedirect code={403} />;
  return (
    <PlayerSlotsContext value={playerSlots}>
      <PreviewPage />
    </PlayerSlotsContext>
  );
}
