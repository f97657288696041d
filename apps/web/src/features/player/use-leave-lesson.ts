/**
 * Leaving the lesson (docs/product.md §4, once the lesson has no page left): the lesson is read
 * again, then its question, its unlocked lessons, or the program evaluation when due. Otherwise
 * the last page simply goes back to the dashboard, while NO_LESSON_PAGE_AVAILABLE out of the
 * blue says so first (`onNoPage`). One departure at a time.
 */
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../../lib/session';
import { getLesson } from './api/get-lesson';
import { getDueProgramEvaluation } from './api/get-program-evaluation';
import { afterLessonPath } from './player-model';

export const HOME = '/';

export type LeaveReason = 'lastPage' | 'noPage';

export function useLeaveLesson(lessonId: string, onNoPage: () => void): (why: LeaveReason) => Promise<void> {
  const navigate = useNavigate();
  const session = useSession();
  const leaving = useRef(false);

  return async (why) => {
    if (leaving.current) return;
    leaving.current = true;
    let target: string | null = null;
    try {
      const lesson = await getLesson(lessonId);
      const due = await getDueProgramEvaluation(lesson, session.user?._id ?? null);
      target = afterLessonPath(lessonId, lesson.attributes.actions, due);
    } catch (error) {
      console.error(error);
    }
    if (target) void navigate(target);
    else if (why === 'lastPage') void navigate(HOME);
    else {
      leaving.current = false;
      onNoPage();
    }
  };
}
