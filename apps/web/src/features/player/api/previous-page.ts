import { apiFetch } from '../../../lib/api-client';
import { lessonPath, toLessonPage, type LessonPage, type LessonPageDocument } from './lesson-page';

/** The page before `fromPageId` (read-only once answered). */
export async function previousPage(lessonId: string, fromPageId: string): Promise<LessonPage> {
  const doc = await apiFetch<LessonPageDocument>(`${lessonPath(lessonId)}/pages/previous`, {
    method: 'POST',
    body: { fromPageId },
  });
  return toLessonPage(doc);
}
