import { describe, expect, it } from 'vitest';
import { gradePage, pageRows } from '../grade-page';
import { blockSolutionSchema } from '../solution';
import { instantiateSolution } from './instantiate';

const solution = blockSolutionSchema.parse({
  feedbacks: [],
  parameters: {
    datasets: { prix: { values: [40, 80] }, remise: { values: [10, 15] } },
    computed: { net: 'prix * (1 - remise / 100)' },
  },
  validators: [
    {
      section: 0,
      row: 0,
      type: 'free-answer',
      expected: { kind: 'number', value: 0, tolerance: 0.01 },
      formula: 'net',
      feedbacks: {},
    },
    {
      section: 0,
      row: 1,
      type: 'combined-choice',
      expected: 0,
      formula: 'remise >= 15 ? 1 : 0',
      feedbacks: {},
    },
  ],
});
const rows = pageRows({
  sections: [
    {
      rows: [{ type: 'free-answer' }, { type: 'combined-choice', choices: [{ value: 'a' }, { value: 'b' }] }],
    },
  ],
});
const settings = { hints: true, feedbacks: true, retry: false };
const grade = (values: Record<string, number>, answers: unknown[]) =>
  gradePage({
    rows,
    solution: instantiateSolution(solution, values),
    answers,
    hintsUsed: 0,
    hintCosts: [],
    settings,
  }).answerRatios;

describe('instantiateSolution and the tolerance', () => {
  it.each([
    // learner's values, answers, ratios per row
    [{ prix: 80, remise: 15, net: 68 }, ['68', 1], [1, 1]],
    [{ prix: 80, remise: 15, net: 68 }, ['68,01 €', 1], [1, 1]],
    [{ prix: 80, remise: 15, net: 68 }, ['68.02', 0], [0, 0]],
    [{ prix: 40, remise: 10, net: 36 }, ['36', 0], [1, 1]],
    [{ prix: 40, remise: 10, net: 36 }, ['68', 1], [0, 0]],
    [{ prix: 40, remise: 10, net: 36 }, ['35,99', null], [1, 0]],
  ])('%j answered %j', (values, answers, ratios) => {
    expect(grade(values, answers)).toEqual(ratios);
  });

  it('refuses to grade a parametrised row without the learner values', () => {
    expect(() =>
      gradePage({ rows, solution, answers: ['68', 1], hintsUsed: 0, hintCosts: [], settings }),
    ).toThrow(/not instantiated/);
  });

  it('refuses a choice formula that gives no index', () => {
    const bad = blockSolutionSchema.parse({
      ...solution,
      validators: [{ ...solution.validators[1], formula: 'prix / 3' }],
    });
    expect(() => instantiateSolution(bad, { prix: 40, remise: 10, net: 36 })).toThrow(/not a choice index/);
  });
});
