import { accommodatedLimit } from '@parcours/domain/time-accommodation';
import type { TimeAccommodation } from '@parcours/domain/time-accommodation';
import { deadlineOf } from './clock';
import type { PlanNode } from './plan';
import type { LessonRow, PageRow } from './repository';
import { jsonObject } from '../programs/serializer';

/**
 * The learner's own limits (decision 0019): the content's page and lesson limits with the time
 * accommodation of their enrolment applied. Every decision (late or not, remaining seconds, the
 * limit sent to the browser) goes through these, so the learner is judged by the time they see.
 */

/** The content's own limit of a page's node, in seconds; null: no limit. */
export function timeLimitOf(node: PlanNode): number | null {
  const v = jsonObject(node.settings).timeLimit;
  return typeof v === 'number' && v > 0 ? v : null;
}

/** The page's limit for this learner, in seconds; null: no limit. */
export function pageLimitOf(acc: TimeAccommodation, page: PageRow, node: PlanNode): number | null {
  return accommodatedLimit(page.timeLimit ?? timeLimitOf(node), acc);
}

/** The lesson's own limit for this learner, in seconds; null: no limit. */
export function lessonLimitOf(acc: TimeAccommodation, lesson: Pick<LessonRow, 'timeLimit'>): number | null {
  return accommodatedLimit(lesson.timeLimit, acc);
}

/** When the page's time is up (without grace), counted from `start` (its start, else its opening). */
export function pageDeadlineOf(
  acc: TimeAccommodation,
  page: PageRow,
  node: PlanNode,
  start: string | null = page.startedAt ?? page.openedAt,
): number | null {
  return deadlineOf(start, pageLimitOf(acc, page, node));
}

export function lessonDeadlineOf(
  acc: TimeAccommodation,
  lesson: Pick<LessonRow, 'startedAt' | 'timeLimit'>,
): number | null {
  return deadlineOf(lesson.startedAt, lessonLimitOf(acc, lesson));
}
