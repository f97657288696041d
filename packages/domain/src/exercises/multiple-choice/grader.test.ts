import { describe, expect, it } from 'vitest';
import type { PublicRow } from '../exercise-grader';
import { answerFeedbacks, answerSchema, expectedSchema, grade, grader } from './grader';

const row: PublicRow = { type: 'multiple-choice', choices: [{}, {}, {}, {}] };
const expected = [0, 2];

describe('multiple-choice grade: ratio = max(0, (right − wrong) / expected)', () => {
  it.each<[string, number[], number, boolean]>([
    ['every right choice', [0, 2], 1, true],
    ['right choices in another order', [2, 0], 1, true],
    ['half the right choices', [0], 0.5, false],
    ['all right plus one wrong', [0, 2, 3], 0.5, false],
    ['one right, one wrong', [0, 1], 0, false],
    ['only wrong choices', [1, 3], 0, false],
    ['everything ticked', [0, 1, 2, 3], 0, false],
    ['nothing ticked', [], 0, false],
  ])('%s → %d', (_label, answer, ratio, correct) => {
    const r = grade(expected, answer, row);
    expect(r.ratio).toBeCloseTo(ratio, 12);
    expect(r.correct).toBe(correct);
  });

  it('reports every choice for correction mode', () => {
    expect(grade(expected, [0, 3], row).detail.items).toEqual(['correct', 'neutral', 'missing', 'wrong']);
  });
});

describe('multiple-choice answer schema', () => {
  it.each<[string, unknown]>([
    ['nothing', []],
    ['one choice', [3]],
    ['every choice', [0, 1, 2, 3]],
  ])('accepts %s', (_label, answer) => {
    expect(answerSchema(row).safeParse(answer).success).toBe(true);
  });

  it.each<[string, unknown]>([
    ['a duplicate index', [0, 0]],
    ['an index out of range', [4]],
    ['a negative index', [-1]],
    ['a non-integer index', [1.5]],
    ['NaN', [Number.NaN]],
    ['Infinity', [Number.POSITIVE_INFINITY]],
    ['an index as a string', ['0']],
    ['a string where a list is expected', '0,2'],
    ['a lone number', 0],
    ['an object', { 0: true }],
    ['null', null],
    ['a boolean list', [true]],
    ['more items than choices', [0, 1, 2, 3, 0]],
    ['a huge array', Array.from({ length: 10_000 }, (_, i) => i)],
  ])('rejects %s', (_label, answer) => {
    expect(answerSchema(row).safeParse(answer).success).toBe(false);
  });

  it('a row without choices takes only an empty answer', () => {
    expect(answerSchema({ type: 'multiple-choice' }).safeParse([]).success).toBe(true);
    expect(answerSchema({ type: 'multiple-choice' }).safeParse([0]).success).toBe(false);
  });
});

describe('multiple-choice expected schema (stored solution)', () => {
  it.each<[unknown, boolean]>([
    [[0, 2], true],
    [[1], true],
    [[], false],
    [[-1], false],
    [1, false],
  ])('%j → %s', (value, ok) => {
    expect(expectedSchema.safeParse(value).success).toBe(ok);
  });
});

describe('multiple-choice feedbacks and registry entry', () => {
  it('shows the feedback of each picked choice, right as success and wrong as warning', () => {
    const result = grade(expected, [0, 1], row);
    expect(answerFeedbacks(result, [0, 1], { choices: { '0': 'yes', '1': 'no', '3': 'unpicked' } })).toEqual([
      { preset: 'success', message: 'yes' },
      { preset: 'warning', message: 'no' },
    ]);
  });

  it('validates what it grades', () => {
    expect(grader.grade(expected, [0, 2], row).ratio).toBe(1);
    expect(() => grader.grade(expected, [9], row)).toThrow();
    expect(() => grader.grade('corrupt', [0], row)).toThrow();
    expect(grader.emptyAnswer(row)).toEqual([]);
  });
});
