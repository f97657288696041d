import { describe, expect, it } from 'vitest';
import type { PublicRow } from '../exercise-grader';
import { answerFeedbacks, answerSchema, expectedSchema, grade, grader } from './grader';

const row: PublicRow = { type: 'combined-choice', choices: [{}, {}, {}] };

describe('combined-choice grade: 1 for the right index, else 0', () => {
  it.each<[string, number | null, number, boolean]>([
    ['the right choice', 1, 1, true],
    ['a wrong choice', 0, 0, false],
    ['the other wrong choice', 2, 0, false],
    ['nothing picked', null, 0, false],
  ])('%s → %d', (_label, answer, ratio, correct) => {
    expect(grade(1, answer, row)).toMatchObject({ ratio, correct });
  });

  it('marks the pick and the expected choice', () => {
    expect(grade(1, 2, row).detail.items).toEqual(['neutral', 'missing', 'wrong']);
    expect(grade(1, 1, row).detail.items).toEqual(['neutral', 'correct', 'neutral']);
  });
});

describe('combined-choice answer schema: one index or null', () => {
  it.each<[string, unknown, boolean]>([
    ['an index', 2, true],
    ['index 0', 0, true],
    ['null', null, true],
    ['out of range', 3, false],
    ['negative', -1, false],
    ['non-integer', 1.5, false],
    ['a string', '1', false],
    ['a list', [1], false],
    ['an object', { index: 1 }, false],
    ['a huge array', Array.from({ length: 10_000 }, () => 1), false],
    ['undefined', undefined, false],
  ])('%s → %s', (_label, answer, ok) => {
    expect(answerSchema(row).safeParse(answer).success).toBe(ok);
  });
});

describe('combined-choice stored expected and feedbacks', () => {
  it.each<[unknown, boolean]>([
    [0, true],
    [2, true],
    [-1, false],
    [[1], false],
  ])('expected %j → %s', (value, ok) => {
    expect(expectedSchema.safeParse(value).success).toBe(ok);
  });

  it('shows the picked choice feedback', () => {
    const fb = { choices: { '2': 'That is double, not half.' } };
    expect(answerFeedbacks(grade(1, 2, row), 2, fb)).toEqual([
      { preset: 'warning', message: 'That is double, not half.' },
    ]);
    expect(answerFeedbacks(grade(1, null, row), null, fb)).toEqual([]);
  });

  it('has null as its empty answer', () => {
    expect(grader.emptyAnswer(row)).toBeNull();
  });
});
