import * as domain from '@parcours/domain/exercises/grade-page';
import { MAX_FREE_ANSWER_LENGTH } from '@parcours/domain/exercises/exercise-grader';
import { isExerciseType } from '@parcours/domain/exercises/registry';
import { EXERCISE_TYPES } from '@parcours/domain/entities';
import { FREE_ANSWER_MAX } from '../exercises/free-answer/FreeAnswer';
import { allAnswersEmpty, isExerciseRow, pageRows } from './page-rows';

const content = {
  sections: [
    { rows: [{ type: 'wysiwyg' as const }, { type: 'multiple-choice' as const, choices: [{}, {}] }] },
    {
      rows: [
        { type: 'drag-n-drop' as const, choices: [{}], targets: [{}, {}] },
        { type: 'free-answer' as const },
      ],
    },
  ],
};

describe('page rows restated from the domain', () => {
  it('reads rows in the same order', () => {
    expect(pageRows(content)).toEqual(domain.pageRows(content));
  });

  it.each([
    [[null, [], [[], []], '  ']],
    [[null, [0], null, '']],
    [[null, null, [[], [0]], null]],
    [[null, null, null, '12']],
    [['text on a wysiwyg row', null, null, null]],
  ])('agrees on the no-answer rule for %j', (answers) => {
    const rows = pageRows(content);
    expect(allAnswersEmpty(rows, answers)).toBe(domain.allAnswersEmpty(domain.pageRows(content), answers));
  });

  it('knows the same exercise types and bounds', () => {
    for (const type of [...EXERCISE_TYPES, 'wysiwyg', 'widgets', 'nope'])
      expect(isExerciseRow(type)).toBe(isExerciseType(type));
    expect(FREE_ANSWER_MAX).toBe(MAX_FREE_ANSWER_LENGTH);
  });
});
