import { apiFetch } from '../../../lib/api-client';
import { lessonPath, toLessonPage, type LessonPage, type LessonPageDocument } from './lesson-page';

/** Starts the server's clock of a timed page once the learner confirms (idempotent). */
export async function startTimedPage(lessonId: string, pageId: string): Promise<LessonPage> {
  const doc = await apiFetch<LessonPageDocument>(`${lessonPath(lessonId)}/pages/current/start`, {
    method: 'POST',
    body: { pageId },
  });
  return toLessonPage(doc);
}
