import { useParams } from 'react-router';
import { CorrectionPage } from '../../features/player/components/CorrectionPage';
import { PlayerSlotsContext } from '../../features/player/player-slots';
import { playerSlots } from './PlayerScreen';

// Content HTML is cleaned before it renders: this screen's loader waits for the cleaner (decision 0033).
export { sanitizerReady } from '../../lib/sanitize-html';

/** docs/product.md §2 /correction, /correction/{pageId}, /correction/{lessonId}/page/{pageId}. */
export function CorrectionScreen() {
  const { lessonId = null, pageId = null } = useParams();
  return (
    <PlayerSlotsContext value={playerSlots}>
      <CorrectionPage lessonId={lessonId} pageId={pageId} />
    </PlayerSlotsContext>
  );
}
