import { useParams } from 'react-router';
import { CourseNodePage } from '../../features/player/components/CourseNodePage';
import { PlayerSlotsContext } from '../../features/player/player-slots';
import { playerSlots } from './PlayerScreen';

// Content HTML is cleaned before it renders: this screen's loader waits for the cleaner (decision 0033).
export { sanitizerReady } from '../../lib/sanitize-html';

/** docs/product.md §2 /render/node/{id}: a course node on its own (node mode). */
export function CourseNodeScreen() {
  const { id = '' } = useParams();
  return (
    <PlayerSlotsContext value={playerSlots}>
      <CourseNodePage key={id} nodeId={id} />
    </PlayerSlotsContext>
  );
}
