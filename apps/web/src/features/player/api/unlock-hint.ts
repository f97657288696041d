import type { HintsView } from '@parcours/domain/entities';
import { apiFetch } from '../../../lib/api-client';
import { lessonPath } from './lesson-page';

/** Unlocks one more hint; its cost is taken when the page is graded. */
export async function unlockHint(lessonId: string, pageId: string): Promise<HintsView> {
  const answer = await apiFetch<{ hints: HintsView }>(`${lessonPath(lessonId)}/pages/current/hints`, {
    method: 'POST',
    body: { pageId },
  });
  return answer.hints;
}
