/**
 * The end-of-lesson rules (docs/product.md §2 end-of-lesson screens, §4 choosing a lesson) as pure
 * functions, tested without rendering.
 */
import { keyFromData, type TranslationKey } from '../../lib/i18n';
import type { LessonAttributes, LessonActions } from '@parcours/domain/entities';

export type UnlockedLesson = LessonActions['unlockedLessons'][number];
export type InteractiveAction = LessonActions['interactive'][number];

/**
 * docs/product.md §2: the chooser lists unlocked lessons unique by content. The server already keeps one
 * lesson per course; the same id or the same title twice would still read as one choice to the
 * learner, so only the first is kept.
 */
export function uniqueUnlockedLessons(lessons: readonly UnlockedLesson[] | undefined): UnlockedLesson[] {
  const ids = new Set<string>();
  const titles = new Set<string>();
  const result: UnlockedLesson[] = [];
  for (const lesson of lessons ?? []) {
    const title = lesson.title.trim().toLocaleLowerCase();
    if (ids.has(lesson.id) || titles.has(title)) continue;
    ids.add(lesson.id);
    titles.add(title);
    result.push(lesson);
  }
  return result;
}

/** docs/product.md §2: a sole option is pre-selected; with several the learner must pick one. */
export function soleChoice<T>(options: readonly T[]): T | null {
  return options.length === 1 ? (options[0] ?? null) : null;
}

/** Questions answered so far, by action index; a question with a sole choice starts answered. */
export function initialAnswers(actions: readonly InteractiveAction[]): (number | null)[] {
  return actions.map((action) => (action.choices.length === 1 ? 0 : null));
}

/** Continue on the questions screen: every question has an answer. */
export function allAnswered(answers: readonly (number | null)[]): answers is number[] {
  return answers.length > 0 && answers.every((choice) => choice !== null);
}

/** docs/product.md §4: a chosen lesson opens at the current page of its first enabled section. */
/**
 * docs/product.md §5: the `{ actionIdx, choiceIdx }` inputs of the answers to send, or null (with a
 * warning in the console, nothing shown, nothing sent) when an action or a choice index is missing.
 */
export function actionInputs(
  answers: readonly (number | null | undefined)[],
): { actionIdx: number; choiceIdx: number }[] | null {
  const inputs = answers.map((choiceIdx, actionIdx) => ({ actionIdx, choiceIdx }));
  const missing = inputs.find(
    (input) =>
      !Number.isInteger(input.actionIdx) || !Number.isInteger(input.choiceIdx) || input.choiceIdx! < 0,
  );
  if (answers.length === 0 || missing) {
    console.warn('Action not sent: a missing action or choice index', missing ?? answers);
    return null;
  }
  return inputs as { actionIdx: number; choiceIdx: number }[];
}

export function firstEnabledSection(lesson: Pick<LessonAttributes, 'enabledSectionIds'>): string | null {
  return lesson.enabledSectionIds?.[0] ?? null;
}

/**
 * Translation keys of an error dialog: the code's own texts, else the generic ones (docs/product.md §8
 * "Question screen failure" falls back to placeholder words; a learner is shown the generic
 * UNDEFINED texts instead). `exists` tells whether the catalogue has a key.
 */
export function errorTextKeys(
  code: string,
  exists: (key: TranslationKey) => boolean,
): { title: TranslationKey; message: TranslationKey; button: TranslationKey | null } {
  // The code comes from the server: its texts are looked up, the UNDEFINED ones stand in.
  const own = (part: string) => keyFromData(`errors.${code}.${part}`);
  return {
    title: exists(own('title')) ? own('title') : 'errors.UNDEFINED.title',
    message: exists(own('message')) ? own('message') : 'errors.UNDEFINED.message',
    button: exists(own('button')) ? own('button') : null,
  };
}
