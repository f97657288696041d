import { describe, expect, it } from 'vitest';
import type { PublicRow } from '../exercise-grader';
import { answerFeedbacks, answerSchema, grade, grader } from './grader';

// Six choices, two targets; choice 5 is a distractor.
const row: PublicRow = { type: 'drag-n-drop', choices: [{}, {}, {}, {}, {}, {}], targets: [{}, {}] };
const expected = [
  [0, 2],
  [1, 3, 4],
];

describe('drag-n-drop grade: ratio = max(0, (well placed − distractors placed) / expected items)', () => {
  it.each<[string, number[][], number, boolean]>([
    [
      'everything in place',
      [
        [0, 2],
        [1, 3, 4],
      ],
      1,
      true,
    ],
    [
      'in place, another order',
      [
        [2, 0],
        [4, 3, 1],
      ],
      1,
      true,
    ],
    ['three of five placed right', [[0, 2], [1]], 3 / 5, false],
    [
      'two swapped',
      [
        [0, 1],
        [2, 3, 4],
      ],
      3 / 5,
      false,
    ],
    [
      'all right plus the distractor',
      [
        [0, 2, 5],
        [1, 3, 4],
      ],
      4 / 5,
      false,
    ],
    [
      'everything in the wrong target',
      [
        [1, 3, 4],
        [0, 2],
      ],
      0,
      false,
    ],
    ['only the distractor', [[5], []], 0, false],
    ['nothing placed', [[], []], 0, false],
  ])('%s → %d', (_label, answer, ratio, correct) => {
    const r = grade(expected, answer, row);
    expect(r.ratio).toBeCloseTo(ratio, 12);
    expect(r.correct).toBe(correct);
  });

  it('reports each choice with where it went and where it belongs', () => {
    expect(grade(expected, [[0, 1, 5], []], row).detail.items).toEqual([
      { status: 'correct', placed: 0, expected: 0 },
      { status: 'wrong', placed: 0, expected: 1 },
      { status: 'missing', placed: null, expected: 0 },
      { status: 'missing', placed: null, expected: 1 },
      { status: 'missing', placed: null, expected: 1 },
      { status: 'wrong', placed: 0, expected: null },
    ]);
  });

  it('an exercise with only distractors is right when nothing is placed', () => {
    expect(grade([[], []], [[], []], row)).toMatchObject({ ratio: 1, correct: true });
    expect(grade([[], []], [[0], []], row)).toMatchObject({ ratio: 0, correct: false });
  });
});

describe('drag-n-drop answer schema: one list of choice indexes per target', () => {
  it.each<[string, unknown, boolean]>([
    ['nothing placed', [[], []], true],
    [
      'everything placed',
      [
        [0, 1, 2],
        [3, 4, 5],
      ],
      true,
    ],
    ['fewer lists than targets', [[0, 2]], false],
    ['more lists than targets', [[0], [1], [2]], false],
    ['a choice in two targets', [[0], [0]], false],
    ['a choice twice in a target', [[0, 0], []], false],
    ['a choice out of range', [[6], []], false],
    ['a negative choice', [[-1], []], false],
    ['a fractional choice', [[0.5], []], false],
    ['a flat list', [0, 1], false],
    ['a string where a list is expected', '0,2|1,3,4', false],
    ['strings in a list', [['0'], []], false],
    ['an object per target', { 0: [0], 1: [1] }, false],
    ['null', null, false],
    ['null as a target', [null, []], false],
    ['a huge target list', [Array.from({ length: 10_000 }, () => 0), []], false],
    ['a huge array of targets', Array.from({ length: 10_000 }, () => []), false],
  ])('%s → %s', (_label, answer, ok) => {
    expect(answerSchema(row).safeParse(answer).success).toBe(ok);
  });
});

describe('drag-n-drop feedbacks and empty answer', () => {
  it('shows the feedback of misplaced choices only', () => {
    const fb = { choices: { '0': 'right target', '1': 'belongs to B', '5': 'a distractor' } };
    const answer = [[0, 1, 5], []];
    expect(answerFeedbacks(grade(expected, answer, row), answer, fb)).toEqual([
      { preset: 'warning', message: 'belongs to B' },
      { preset: 'warning', message: 'a distractor' },
    ]);
  });

  it('has one empty list per target as its empty answer', () => {
    expect(grader.emptyAnswer(row)).toEqual([[], []]);
  });
});
