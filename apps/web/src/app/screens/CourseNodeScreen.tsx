import { useParams } from '../../lib/router';
import { CourseNodePage } from '../../features/player/components/CourseNodePage';
import { PlayerSlotsContext } from '../../features/player/player-slots';
import { playerSlots } from './PlayerScreen';

/** SPEC §2 /render/node/{id}: a course node on its own (node mode). */
export function CourseNodeScreen() {
  const { id = '' } = useParams();
  return (
    <PlayerSlotsContext value={playerSlots}>
      <CourseNodePage key={id} nodeId={id} />
    </PlayerSlotsContext>
  );
}
