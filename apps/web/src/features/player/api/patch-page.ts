import { apiFetch } from '../../../lib/api-client';
import { scheduleUserScoreRefresh } from '../../../lib/user-score';
import { lessonPath, toLessonPage, type LessonPage, type LessonPageDocument } from './lesson-page';

/**
 * Records the learner's answers (one per row, reading order) and answers the graded page.
 * Slides and tincan pages send no inputs: the empty patch marks them seen.
 */
export async function patchPage(
  lessonId: string,
  pageId: string,
  answers?: readonly unknown[],
): Promise<LessonPage> {
  const doc = await apiFetch<LessonPageDocument>(`${lessonPath(lessonId)}/pages/current`, {
    method: 'PATCH',
    body: answers === undefined ? { pageId } : { pageId, inputs: { answers } },
  });
  // The grade changed the learner's score: the signed-in user is read again, debounced (§9).
  scheduleUserScoreRefresh();
  return toLessonPage(doc);
}
