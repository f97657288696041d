/**
 * Exercise types by name (docs/architecture.md §5): adding a type means one folder here, one entry
 * below, and its component in apps/web.
 */
import type { ExerciseType } from '../entities';
import { EXERCISE_TYPES } from '../entities';
import { grader as combinedChoice } from './combined-choice/grader';
import type { Detail as CombinedChoiceDetail } from './combined-choice/grader';
import { grader as dragAndDrop } from './drag-n-drop/grader';
import type { Detail as DragAndDropDetail } from './drag-n-drop/grader';
import type { ExerciseGrader, GradeResult } from './exercise-grader';
import { grader as freeAnswer } from './free-answer/grader';
import type { Detail as FreeAnswerDetail } from './free-answer/grader';
import { grader as imageCliquable } from './image-cliquable/grader';
import type { Detail as ImageCliquableDetail } from './image-cliquable/grader';
import { grader as multipleChoice } from './multiple-choice/grader';
import type { Detail as MultipleChoiceDetail } from './multiple-choice/grader';
import { grader as pickWords } from './pick-words/grader';
import type { Detail as PickWordsDetail } from './pick-words/grader';

/** The correction detail each type reports. */
export interface ExerciseDetails {
  'multiple-choice': MultipleChoiceDetail;
  'combined-choice': CombinedChoiceDetail;
  'free-answer': FreeAnswerDetail;
  'drag-n-drop': DragAndDropDetail;
  'pick-words': PickWordsDetail;
  'image-cliquable': ImageCliquableDetail;
}

export const exerciseRegistry: { readonly [T in ExerciseType]: ExerciseGrader<ExerciseDetails[T]> } = {
  'multiple-choice': multipleChoice,
  'combined-choice': combinedChoice,
  'free-answer': freeAnswer,
  'drag-n-drop': dragAndDrop,
  'pick-words': pickWords,
  'image-cliquable': imageCliquable,
};

/** A graded row as correction mode reads it, narrowed by `type`. */
export type RowCorrection = {
  [T in ExerciseType]: { type: T } & GradeResult<ExerciseDetails[T]>;
}[ExerciseType];

const exerciseTypes: ReadonlySet<string> = new Set(EXERCISE_TYPES);

export function isExerciseType(rowType: unknown): rowType is ExerciseType {
  return typeof rowType === 'string' && exerciseTypes.has(rowType);
}
