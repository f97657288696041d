import { useParams } from 'react-router';
import { QuestionsPage } from '../../features/progression/components/QuestionsPage';

/** docs/product.md §2 /session/{id}/questions: the interactive question after a lesson. */
export function PlayerQuestionsScreen() {
  const { id = '' } = useParams();
  return <QuestionsPage key={id} lessonId={id} />;
}
