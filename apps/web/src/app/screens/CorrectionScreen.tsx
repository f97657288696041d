import { useParams } from '../../lib/router';
import { CorrectionPage } from '../../features/player/components/CorrectionPage';
import { PlayerSlotsContext } from '../../features/player/player-slots';
import { playerSlots } from './PlayerScreen';

/** SPEC §2 /correction, /correction/{pageId}, /correction/{lessonId}/page/{pageId}. */
export function CorrectionScreen() {
  const { lessonId = null, pageId = null } = useParams();
  return (
    <PlayerSlotsContext value={playerSlots}>
      <CorrectionPage lessonId={lessonId} pageId={pageId} />
    </PlayerSlotsContext>
  );
}
