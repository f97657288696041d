/**
 * A playing page's clocks in the toolbar: the lesson's own (when it has a time limit) beside the
 * timed exercise's, until the exercise is answered. Each page document carries the server's
 * clocks: a new document re-syncs them.
 */
import type { LessonPage } from '../api/lesson-page';
import { isAnswered, timeLimitOf } from '../player-model';
import { Countdown } from './Countdown';

export function PageCountdowns({
  page,
  onTimeUp,
  onLessonTimeUp,
}: {
  page: LessonPage;
  onTimeUp: () => void;
  onLessonTimeUp: () => void;
}) {
  const lessonLimited = page.lessonTimeLimit !== null && page.lessonRemainingSeconds !== null;
  const timed = timeLimitOf(page) !== null && page.remainingSeconds !== null && !isAnswered(page);
  if (!lessonLimited && !timed) return null;
  return (
    <>
      {lessonLimited && page.lessonRemainingSeconds !== null ? (
        <Countdown
          seconds={page.lessonRemainingSeconds}
          restartKey={`lesson:${page.id}`}
          onEnded={onLessonTimeUp}
          scope="lesson"
        />
      ) : null}
      {timed && page.remainingSeconds !== null ? (
        <Countdown
          seconds={page.remainingSeconds}
          restartKey={`${page.id}:${page.startedAt ?? ''}`}
          onEnded={onTimeUp}
          scope={lessonLimited ? 'exercise' : 'plain'}
        />
      ) : null}
    </>
  );
}
