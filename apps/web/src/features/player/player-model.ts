/**
 * The player's rules as pure functions (docs/product.md §2 footer, §4 lesson player, next flow, feedbacks,
 * countdown), so each is tested without rendering.
 */
import { type TranslationKey } from '../../lib/i18n';
import { COUNTDOWN_ENDING_S, COUNTDOWN_WARNING_S } from '@parcours/domain/constants';
import type { BlockView, LessonAttributes, PageResults } from '@parcours/domain/entities';
import type { RowCorrection } from '@parcours/domain/exercises/registry';
import type { LessonPage } from './api/lesson-page';
import { allAnswersEmpty, isExerciseRow, pageRows, type PageRow } from './page-rows';

export function rowsOf(block: BlockView | null): PageRow[] {
  return block ? pageRows(block.content) : [];
}

/** One answer per row in reading order: the recorded ones, else null (no answer yet). */
export function initialAnswers(page: LessonPage): unknown[] {
  const recorded = page.inputs?.answers ?? [];
  return rowsOf(page.block).map((_, i) => recorded[i] ?? null);
}

/** Recorded pages are read-only (the server refuses a second answer). */
export function isAnswered(page: LessonPage): boolean {
  return page.results !== null || page.inputs !== null;
}

/** docs/product.md §4: the no-answer dialog shows on exercise pages when nothing was answered. */
export function needsNoAnswerDialog(page: LessonPage, answers: readonly unknown[]): boolean {
  if (!page.block || page.block.type !== 'exercice' || isAnswered(page)) return false;
  return allAnswersEmpty(rowsOf(page.block), answers);
}

export type Feedback = PageResults['feedbacks'][number];

/**
 * docs/product.md §4: one at a time, general ones before answer-specific ones, none when the course type
 * turns feedback off. The sort is stable, so the server's order holds within each group.
 */
export function orderFeedbacks(page: LessonPage): Feedback[] {
  if (!page.courseTypeSettings.feedbacks || !page.results) return [];
  const rank = (f: Feedback) => (f.source === 'general' ? 0 : 1);
  return [...page.results.feedbacks].sort((a, b) => rank(a) - rank(b));
}

/** The dialog's tone from the feedback preset; unknown presets read as information. */
export function feedbackTone(preset: string): 'success' | 'info' | 'warning' | 'danger' {
  return preset === 'success' || preset === 'warning' || preset === 'danger' ? preset : 'info';
}

/** docs/product.md §2: 'end module' on tincan blocks, else 'next'. */
export function nextLabelKey(block: BlockView | null): TranslationKey {
  return block?.type === 'tincan' ? 'player.footer.endModule' : 'player.footer.next';
}

/** docs/product.md §2: the dashboard button shows when the block asks for it, never on tincan blocks. */
export function showsDashboardButton(block: BlockView | null): boolean {
  return Boolean(block?.settings.template?.backToDashBoard) && block?.type !== 'tincan';
}

/** Elements where Enter already means something (press, follow, pick, new line). */
const ENTER_OWNERS =
  'button, a[href], textarea, select, summary, [role="button"], [role="link"], [role="checkbox"], [role="radio"], [role="menuitem"], [role="option"], [role="tab"], [contenteditable="true"], [role="dialog"], [role="alertdialog"]';

/**
 * docs/product.md §2: Enter triggers Next, except in tincan blocks. It is left alone where Enter has its
 * own meaning (buttons, links, lists, text areas, dialogs), while typing an answer in a text
 * field it moves on like a form would.
 */
export function enterTriggersNext(
  event: Pick<
    KeyboardEvent,
    | 'key'
    | 'defaultPrevented'
    | 'repeat'
    | 'isComposing'
    | 'altKey'
    | 'ctrlKey'
    | 'metaKey'
    | 'shiftKey'
    | 'target'
  >,
  context: { isTincan: boolean; dialogOpen: boolean; enabled: boolean },
): boolean {
  if (event.key !== 'Enter' || event.defaultPrevented || event.repeat || event.isComposing) return false;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
  if (context.isTincan || context.dialogOpen || !context.enabled) return false;
  const target = event.target;
  if (target instanceof Element && target.closest(ENTER_OWNERS)) return false;
  return true;
}

/** Seconds allowed on the page (page limit, else the node's), or null when untimed. */
export function timeLimitOf(page: LessonPage): number | null {
  const limit = page.timeLimit ?? page.node.settings.timeLimit ?? null;
  return typeof limit === 'number' && limit > 0 ? limit : null;
}

/**
 * A new attempt is offered on an answered exercise the server says may be retried (course type
 * allows it, the page is not fully right). Slides and tincan have nothing to retry.
 */
export function canRetry(page: LessonPage): boolean {
  return (
    page.block?.type === 'exercice' &&
    page.courseTypeSettings.retry &&
    page.results !== null &&
    page.results.retryAllowed === true
  );
}

/** A timed page waits for the learner's go before its clock (and its content) starts. */
export function needsTimedStart(page: LessonPage): boolean {
  return timeLimitOf(page) !== null && page.startedAt === null && !isAnswered(page);
}

export type CountdownPhase = 'running' | 'warning' | 'ending' | 'ended';

/**
 * docs/product.md §4: 'ending' at 5 s or fewer, 'ended' at 0 or below; before them, 'warning' from 20 s
 * (RGAA 13.1, decision 0019: the learner is told at least 20 s before the end).
 */
export function countdownPhase(remaining: number): CountdownPhase {
  if (remaining <= 0) return 'ended';
  if (remaining <= COUNTDOWN_ENDING_S) return 'ending';
  return remaining <= COUNTDOWN_WARNING_S ? 'warning' : 'running';
}

/**
 * Where the learner goes once the lesson has no page left (docs/product.md §4): the interactive question,
 * else the chooser of unlocked lessons, else the program evaluation when it is due. Null: none
 * of them applies.
 */
export function afterLessonPath(
  lessonId: string,
  actions: LessonAttributes['actions'] | undefined,
  dueProgramId: string | null,
): string | null {
  const id = encodeURIComponent(lessonId);
  if (actions?.interactive?.length) return `/session/${id}/questions`;
  if (actions?.unlockedLessons?.length) return `/session/${id}/actions`;
  if (dueProgramId) return `/evaluate/program/${encodeURIComponent(dueProgramId)}`;
  return null;
}

/** What the learner's score on the page reads as, for the results line. */
export function scoreOf(results: PageResults | null): { actual: number; max: number } | null {
  return results && results.score.max > 0 ? results.score : null;
}

/** The server's per-row correction, when it has the shape its type reports (registry RowCorrection). */
export function asRowCorrection(value: unknown, rowType: string): RowCorrection | null {
  if (typeof value !== 'object' || value === null || !isExerciseRow(rowType)) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.ratio !== 'number' || typeof record.detail !== 'object' || record.detail === null)
    return null;
  return { ...record, type: rowType } as RowCorrection;
}

/** Correction mode: one entry per row, null for rows that are not graded. */
export function correctionsOf(page: LessonPage): (RowCorrection | null)[] {
  const list = page.results?.correction ?? [];
  return rowsOf(page.block).map((row, i) => asRowCorrection(list[i], row.content.type));
}
