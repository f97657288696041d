import { apiFetch } from '../../../lib/api-client';
import { lessonPath, toLessonPage, type LessonPage, type LessonPageDocument } from './lesson-page';

/** A multiblock page: the learner picks one of its blocks, which becomes the page (same slot). */
export async function chooseChild(lessonId: string, pageId: string, nodeId: string): Promise<LessonPage> {
  const doc = await apiFetch<LessonPageDocument>(`${lessonPath(lessonId)}/pages/current/choose`, {
    method: 'POST',
    body: { pageId, nodeId },
  });
  return toLessonPage(doc);
}
