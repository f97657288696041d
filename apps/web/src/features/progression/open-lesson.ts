import { readErrorCode } from '@parcours/domain/errors';
import { setActiveLesson } from '../../lib/storage';
import { openCurrentPage } from './api/get-current-page';
import { getLesson } from './api/get-lesson';
import { firstEnabledSection } from './progression-model';

/**
 * docs/product.md §4 "Choosing an unlocked lesson": reload it, open its current page from its first
 * enabled section, remember it as the opened lesson (docs/product.md §7 session key), and answer the
 * player's path. A lesson with no page left still goes to the player, whose own
 * NO_LESSON_PAGE_AVAILABLE flow knows what comes next.
 */
export async function openLesson(lessonId: string): Promise<string> {
  const lesson = await getLesson(lessonId);
  try {
    await openCurrentPage(lesson.id, firstEnabledSection(lesson.attributes));
  } catch (error) {
    if (readErrorCode(error) !== 'NO_LESSON_PAGE_AVAILABLE') throw error;
  }
  setActiveLesson({ classId: lesson.attributes.classId, lessonId: lesson.id });
  return `/session/${encodeURIComponent(lesson.id)}`;
}
