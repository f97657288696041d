import { apiFetch } from '../../../lib/api-client';
import { lessonPath, toLessonPage, type LessonPage, type LessonPageDocument } from './lesson-page';

/** The page after `fromPageId`; from the last page the server answers NO_LESSON_PAGE_AVAILABLE. */
export async function nextPage(lessonId: string, fromPageId: string): Promise<LessonPage> {
  const doc = await apiFetch<LessonPageDocument>(`${lessonPath(lessonId)}/pages/next`, {
    method: 'POST',
    body: { fromPageId },
  });
  return toLessonPage(doc);
}
