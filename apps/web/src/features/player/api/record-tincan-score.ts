import { apiFetch } from '../../../lib/api-client';
import type { TincanScore } from '../../exercises/row-props';
import { lessonPath, toLessonPage, type LessonPage, type LessonPageDocument } from './lesson-page';

/**
 * Records the score a tincan page's learning module reported (xAPI `result.score`), with the
 * launch the server issued with the page (`tincanLaunch`); the server turns it into the page's
 * points once and answers the recorded page.
 */
export async function recordTincanScore(
  lessonId: string,
  pageId: string,
  launch: string,
  score: TincanScore,
): Promise<LessonPage> {
  const doc = await apiFetch<LessonPageDocument>(`${lessonPath(lessonId)}/pages/custom-tincan-score`, {
    method: 'POST',
    body: { pageId, launch, score },
  });
  return toLessonPage(doc);
}
