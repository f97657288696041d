import { apiFetch } from '../../../lib/api-client';
import { lessonPath, toLessonPage, type LessonPage, type LessonPageDocument } from './lesson-page';

/**
 * Archives an answered page and opens its next attempt (empty answers, no results). The new
 * attempt has its own id: the next PATCH must name it, not the archived one.
 */
export async function retryPage(lessonId: string, pageId: string): Promise<LessonPage> {
  const doc = await apiFetch<LessonPageDocument>(`${lessonPath(lessonId)}/pages/current/retry`, {
    method: 'POST',
    body: { pageId },
  });
  return toLessonPage(doc);
}
