import { describe, expect, it } from 'vitest';
import type { PublicRow } from '../exercise-grader';
import { answerFeedbacks, answerSchema, grade } from './grader';

// Zones are the public row's `choices` (shapes and labels).
const zone = (label: string) => ({ shape: 'circle', cx: 10, cy: 10, r: 5, label });
const row: PublicRow = {
  type: 'image-cliquable',
  choices: [zone('a'), zone('b'), zone('c'), zone('d'), zone('e')],
};
const expected = [1, 3, 4];

describe('image-cliquable grade: ratio = max(0, (right zones − wrong zones) / expected)', () => {
  it.each<[string, number[], number, boolean]>([
    ['every zone', [1, 3, 4], 1, true],
    ['two of three', [1, 4], 2 / 3, false],
    ['one of three', [3], 1 / 3, false],
    ['two right, one wrong', [1, 3, 0], 1 / 3, false],
    ['all right, two wrong', [0, 1, 2, 3, 4], 1 / 3, false],
    ['only wrong zones', [0, 2], 0, false],
    ['no click', [], 0, false],
  ])('%s → %d', (_label, answer, ratio, correct) => {
    const r = grade(expected, answer, row);
    expect(r.ratio).toBeCloseTo(ratio, 12);
    expect(r.correct).toBe(correct);
  });

  it('marks clicked, missed and untouched zones', () => {
    expect(grade(expected, [0, 1], row).detail.items).toEqual([
      'wrong',
      'correct',
      'neutral',
      'missing',
      'missing',
    ]);
  });
});

describe('image-cliquable answer schema', () => {
  it.each<[string, unknown, boolean]>([
    ['no click', [], true],
    ['every zone', [0, 1, 2, 3, 4], true],
    ['a zone clicked twice', [1, 1], false],
    ['a zone out of range', [5], false],
    ['a negative zone', [-1], false],
    ['a fractional zone', [0.5], false],
    ['coordinates instead of indexes', [{ x: 10, y: 20 }], false],
    ['a string where a list is expected', '1,3', false],
    ['an object', { zones: [1] }, false],
    ['null', null, false],
    ['a huge array', Array.from({ length: 10_000 }, () => 0), false],
  ])('%s → %s', (_label, answer, ok) => {
    expect(answerSchema(row).safeParse(answer).success).toBe(ok);
  });
});

it('image-cliquable shows the feedback of a clicked zone only', () => {
  const result = grade(expected, [0], row);
  expect(
    answerFeedbacks(result, [0], { choices: { '0': 'Not a hazard.', '1': 'Cable across the walkway.' } }),
  ).toEqual([{ preset: 'warning', message: 'Not a hazard.' }]);
});
