import { apiFetch } from '../../../lib/api-client';
import { lessonPath } from './lesson-page';

/** Keep-alive: the server adds the time since the last ping (capped) to the page's time. */
export async function ping(lessonId: string, pageId: string): Promise<void> {
  await apiFetch<void>(`${lessonPath(lessonId)}/pages/current/ping`, { method: 'POST', body: { pageId } });
}
