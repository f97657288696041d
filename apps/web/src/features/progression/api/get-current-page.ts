import { apiFetch } from '../../../lib/api-client';
import { lessonPath } from './get-lesson';

/**
 * Opens the lesson's current page in a section (docs/product.md §4 "Choosing an unlocked lesson"): the
 * server creates it on first open, so the player finds it ready. The page itself is not kept:
 * the player loads it again under its own keys.
 */
export async function openCurrentPage(
  lessonId: string,
  section: string | null,
  signal?: AbortSignal,
): Promise<void> {
  await apiFetch<unknown>(`${lessonPath(lessonId)}/pages/current`, {
    query: { noCache: Date.now(), section },
    signal,
  });
}
