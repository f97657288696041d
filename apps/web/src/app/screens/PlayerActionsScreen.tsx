import { useParams } from 'react-router';
import { ActionsPage } from '../../features/progression/components/ActionsPage';

/** docs/product.md §2 /session/{id}/actions: the end-of-lesson screen. */
export function PlayerActionsScreen() {
  const { id = '' } = useParams();
  return <ActionsPage key={id} lessonId={id} />;
}
