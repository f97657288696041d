import { describe, expect, it } from 'vitest';
import type { PageRow } from './grade-page';
import {
  MAX_ANSWER_ISSUES,
  ROW_POINTS,
  allAnswersEmpty,
  gradePage,
  hintCost,
  hintsView,
  isEmptyAnswer,
  pageContentSchema,
  pageRows,
  parsePageAnswers,
} from './grade-page';
import type { GradingSettings } from './grade-page';
import type { BlockSolution } from './solution';
import { blockSolutionSchema } from './solution';

// A page: section 0 = text + multiple-choice + free-answer; section 1 = drag-n-drop.
const content = pageContentSchema.parse({
  statement: null,
  sections: [
    {
      title: null,
      rows: [
        { type: 'wysiwyg', order: 0, html: '<p>Read this.</p>' },
        {
          type: 'multiple-choice',
          order: 1,
          choices: [{ value: 'a' }, { value: 'b' }, { value: 'c' }, { value: 'd' }],
        },
        { type: 'free-answer', order: 2, placeholder: null, inputMode: 'decimal' },
      ],
    },
    { title: 'Sort', rows: [{ type: 'drag-n-drop', order: 0, choices: [{}, {}, {}], targets: [{}, {}] }] },
  ],
});
const rows: PageRow[] = pageRows(content);

const solution: BlockSolution = blockSolutionSchema.parse({
  feedbacks: [
    { when: 'always', preset: 'info', message: 'general: always' },
    { when: 'correct', preset: 'success', message: 'general: correct' },
    { when: 'partial', preset: 'warning', message: 'general: partial' },
    { when: 'incorrect', preset: 'danger', message: 'general: incorrect' },
  ],
  validators: [
    {
      section: 0,
      row: 1,
      type: 'multiple-choice',
      expected: [0, 2],
      feedbacks: { correct: 'mc: correct', incorrect: 'mc: incorrect', choices: { '1': 'mc: b is wrong' } },
    },
    {
      section: 0,
      row: 2,
      type: 'free-answer',
      expected: { kind: 'number', value: 60, tolerance: 0 },
      feedbacks: {
        correct: 'fa: correct',
        answers: [{ match: ['20'], message: 'fa: that is the discount' }],
      },
    },
    {
      section: 1,
      row: 0,
      type: 'drag-n-drop',
      expected: [[0], [1]],
      feedbacks: { incorrect: 'dnd: incorrect' },
    },
  ],
});

const ON: GradingSettings = { hints: true, feedbacks: true, retry: true };
const RIGHT = [null, [0, 2], '60 €', [[0], [1]]];
const grade = (answers: unknown[], over: Partial<Parameters<typeof gradePage>[0]> = {}) =>
  gradePage({ rows, solution, answers, hintsUsed: 0, hintCosts: [0, 2], settings: ON, ...over });

describe('pageRows', () => {
  it('lists rows in reading order with their section and row index', () => {
    expect(rows.map((r) => [r.section, r.row, r.content.type])).toEqual([
      [0, 0, 'wysiwyg'],
      [0, 1, 'multiple-choice'],
      [0, 2, 'free-answer'],
      [1, 0, 'drag-n-drop'],
    ]);
  });
});

describe('parsePageAnswers', () => {
  it.each<[string, unknown, unknown[]]>([
    ['every answer', RIGHT, RIGHT],
    ['no answer at all', [], [null, null, null, null]],
    ['a shorter list', [null, [1]], [null, [1], null, null]],
    ['undefined entries', [undefined, [1], undefined], [null, [1], null, null]],
  ])('accepts %s', (_label, raw, answers) => {
    expect(parsePageAnswers(rows, raw)).toEqual({ ok: true, answers });
  });

  it.each<[string, unknown, { rowIndex: number | null; path: string }[]]>([
    ['an object instead of a list', { 1: [0] }, [{ rowIndex: null, path: '' }]],
    ['a string instead of a list', '0,2', [{ rowIndex: null, path: '' }]],
    ['null instead of a list', null, [{ rowIndex: null, path: '' }]],
    [
      'an answer for a row that does not exist',
      [null, [0], '60', [[0], [1]], [1]],
      [{ rowIndex: 4, path: '' }],
    ],
    ['an answer for a text row', ['hello', [0]], [{ rowIndex: 0, path: '' }]],
    ['a string where a list is expected', [null, '0,2'], [{ rowIndex: 1, path: '' }]],
    ['an index out of range', [null, [0, 4]], [{ rowIndex: 1, path: '1' }]],
    ['a negative index', [null, [-1]], [{ rowIndex: 1, path: '0' }]],
    ['a duplicate index', [null, [2, 2]], [{ rowIndex: 1, path: '' }]],
    ['a number for a free answer', [null, null, 60], [{ rowIndex: 2, path: '' }]],
    ['a too long free answer', [null, null, 'x'.repeat(1001)], [{ rowIndex: 2, path: '' }]],
    ['a missing target', [null, null, null, [[0]]], [{ rowIndex: 3, path: '' }]],
    ['a wrong item in a target', [null, null, null, [[0], ['1']]], [{ rowIndex: 3, path: '1.0' }]],
    [
      'several rows wrong at once',
      [null, [9], 42],
      [
        { rowIndex: 1, path: '0' },
        { rowIndex: 2, path: '' },
      ],
    ],
  ])('rejects %s', (_label, raw, where) => {
    const r = parsePageAnswers(rows, raw);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.issues.map(({ rowIndex, path }) => ({ rowIndex, path }))).toEqual(where);
      for (const i of r.issues) expect(i.message).toEqual(expect.any(String));
    }
  });

  it.each<[string, unknown]>([
    ['a huge answer list', Array.from({ length: 10_000 }, () => null)],
    ['a huge array in a row', [null, Array.from({ length: 10_000 }, (_, i) => i)]],
  ])('rejects %s with a single issue', (_label, raw) => {
    const r = parsePageAnswers(rows, raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toHaveLength(1);
  });

  it('caps the number of issues', () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ type: 'free-answer', order: i }));
    const manyRows = pageRows({ sections: [{ rows: many }] });
    const r = parsePageAnswers(
      manyRows,
      many.map(() => 1),
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toHaveLength(MAX_ANSWER_ISSUES);
  });

  it('explains a pick-words answer against the branch it was meant for', () => {
    const pw = pageRows({ sections: [{ rows: [{ type: 'pick-words', words: ['a', 'b'] }] }] });
    const r = parsePageAnswers(pw, [[0, 1.5]]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toEqual([{ rowIndex: 0, path: '1', message: 'an index must be an integer' }]);
  });
});

describe('no-answer rule (SPEC §5)', () => {
  it.each<[string, unknown, boolean]>([
    ['multiple-choice', [], true],
    ['multiple-choice', [0], false],
    ['combined-choice', null, true],
    ['combined-choice', 0, false],
    ['free-answer', '', true],
    ['free-answer', '   ', true],
    ['free-answer', '0', false],
    ['drag-n-drop', [[], []], true],
    ['drag-n-drop', [[], [0]], false],
    ['pick-words', [], true],
    ['pick-words', ['mot'], false],
    ['image-cliquable', [], true],
    ['image-cliquable', [2], false],
    ['free-answer', undefined, true],
    ['wysiwyg', 'anything', true],
  ])('%s %j empty → %s', (type, answer, empty) => {
    expect(isEmptyAnswer(type, answer)).toBe(empty);
  });

  it.each<[string, unknown[], boolean]>([
    ['nothing sent', [], true],
    ['only empty answers', [null, [], '  ', [[], []]], true],
    ['one answer', [null, [], '12', [[], []]], false],
  ])('allAnswersEmpty: %s → %s', (_label, answers, empty) => {
    expect(allAnswersEmpty(rows, answers)).toBe(empty);
  });
});

describe('hints', () => {
  const hints = [
    { message: 'first', cost: 0 },
    { message: 'second', cost: 2 },
    { message: 'third', cost: 1 },
  ];
  it.each<[number, string[], number, number | null]>([
    [0, [], 3, 0],
    [1, ['first'], 2, 2],
    [2, ['first', 'second'], 1, 1],
    [3, ['first', 'second', 'third'], 0, null],
    [9, ['first', 'second', 'third'], 0, null],
    [-1, [], 3, 0],
    [1.7, ['first'], 2, 2],
    [Number.NaN, [], 3, 0],
  ])('%d used → messages %j, %d remaining, next malus %s', (used, messages, remaining, nextMalus) => {
    expect(hintsView(hints, used)).toEqual({ messages, remaining, nextMalus });
  });

  it('shows nothing when the course type has hints off', () => {
    expect(hintsView(hints, 2, { hints: false })).toEqual({ messages: [], remaining: 0, nextMalus: null });
  });

  it.each<[number[], number, number]>([
    [[0, 2, 1], 0, 0],
    [[0, 2, 1], 1, 0],
    [[0, 2, 1], 2, 2],
    [[0, 2, 1], 3, 3],
    [[0, 2, 1], 10, 3],
    [[-5, 2], 2, 2],
    [[], 3, 0],
  ])('costs %j with %d used → %d', (costs, used, cost) => {
    expect(hintCost(costs, used)).toBe(cost);
  });
});

describe('gradePage', () => {
  it.each<[string, unknown[], (number | null)[], number]>([
    ['every row right', RIGHT, [null, 1, 1, 1], 30],
    ['nothing answered', [], [null, 0, 0, 0], 0],
    ['half a multiple-choice, rest right', [null, [0], '60', [[0], [1]]], [null, 0.5, 1, 1], 25],
    ['swapped drag-n-drop', [null, [0, 2], '60', [[1], [0]]], [null, 1, 1, 0], 20],
    ['one wrong pick cancels a right one', [null, [0, 1], '61', [[0], []]], [null, 0, 0, 0.5], 5],
  ])('%s → ratios %j, score %d/30', (_label, answers, ratios, actual) => {
    const g = grade(answers);
    expect(g.answerRatios).toEqual(ratios);
    expect(g.score).toEqual({ actual, max: 3 * ROW_POINTS });
    expect(g.progress).toBe('COMPLETED');
  });

  it.each<[string, number, boolean, number]>([
    ['no hint', 0, true, 30],
    ['a free hint', 1, true, 30],
    ['the paid hint', 2, true, 28],
    ['more hints than exist', 5, true, 28],
    ['hints off: costs ignored', 2, false, 30],
  ])('hint costs: %s → %d', (_label, hintsUsed, hints, actual) => {
    const g = grade(RIGHT, { hintsUsed, settings: { ...ON, hints } });
    expect(g.score.actual).toBe(actual);
    expect(g.hintCost).toBe(30 - actual);
  });

  it('never goes below zero', () => {
    expect(grade([], { hintsUsed: 2, hintCosts: [50, 50] }).score).toEqual({ actual: 0, max: 30 });
  });

  it('rounds the score to two decimals', () => {
    const third = gradePage({
      rows: pageRows({ sections: [{ rows: [{ type: 'image-cliquable', choices: [{}, {}, {}] }] }] }),
      solution: {
        feedbacks: [],
        validators: [{ section: 0, row: 0, type: 'image-cliquable', expected: [0, 1, 2], feedbacks: {} }],
      },
      answers: [[0]],
      hintsUsed: 0,
      hintCosts: [],
      settings: ON,
    });
    expect(third.score).toEqual({ actual: 3.33, max: 10 });
  });

  it.each<[string, unknown[], string | null, string[]]>([
    ['all right', RIGHT, 'correct', ['general: always', 'general: correct', 'mc: correct', 'fa: correct']],
    [
      'partly right',
      [null, [0, 1], '20', [[0], [1]]],
      'partial',
      ['general: always', 'general: partial', 'mc: incorrect', 'mc: b is wrong', 'fa: that is the discount'],
    ],
    [
      'nothing right',
      [null, [1], '20', [[1], [0]]],
      'incorrect',
      [
        'general: always',
        'general: incorrect',
        'mc: incorrect',
        'mc: b is wrong',
        'fa: that is the discount',
        'dnd: incorrect',
      ],
    ],
  ])('feedbacks when %s: general first, then per row', (_label, answers, outcome, messages) => {
    const g = grade(answers);
    expect(g.outcome).toBe(outcome);
    expect(g.feedbacks.map((f) => f.message)).toEqual(messages);
    const firstAnswer = g.feedbacks.findIndex((f) => f.source === 'answer');
    expect(
      g.feedbacks.slice(0, firstAnswer).every((f) => f.source === 'general' && f.rowIndex === null),
    ).toBe(true);
    expect(g.feedbacks.slice(firstAnswer).every((f) => f.source === 'answer' && f.rowIndex !== null)).toBe(
      true,
    );
  });

  it('gives no feedback when the course type has feedbacks off', () => {
    expect(grade(RIGHT, { settings: { ...ON, feedbacks: false } }).feedbacks).toEqual([]);
  });

  it.each<[string, unknown[], boolean, boolean]>([
    ['retry on, something wrong', [], true, true],
    ['retry on, all right', RIGHT, true, false],
    ['retry off, something wrong', [], false, false],
  ])('retryAllowed: %s → %s', (_label, answers, retry, allowed) => {
    expect(grade(answers, { settings: { ...ON, retry } }).retryAllowed).toBe(allowed);
  });

  it('returns correction details per row, typed by row type', () => {
    const g = grade([null, [0, 3], '59', [[0], []]]);
    expect(g.correction[0]).toBeNull();
    expect(g.correction[1]).toEqual({
      type: 'multiple-choice',
      ratio: 0,
      correct: false,
      detail: { items: ['correct', 'neutral', 'missing', 'wrong'] },
    });
    expect(g.correction[2]).toMatchObject({
      type: 'free-answer',
      detail: { kind: 'number', value: 60, read: 59 },
    });
    expect(g.correction[3]).toMatchObject({ type: 'drag-n-drop', ratio: 0.5 });
  });

  it('grades a page without exercises as complete with nothing to score', () => {
    const slide = pageRows({ sections: [{ rows: [{ type: 'wysiwyg' }] }] });
    const g = gradePage({
      rows: slide,
      solution: { feedbacks: [{ when: 'correct', preset: 'success', message: 'x' }], validators: [] },
      answers: [],
      hintsUsed: 0,
      hintCosts: [],
      settings: ON,
    });
    expect(g).toMatchObject({
      answerRatios: [null],
      score: { actual: 0, max: 0 },
      outcome: null,
      feedbacks: [],
    });
  });

  it('refuses a solution that lacks a row validator, or answers that skipped parsing', () => {
    expect(() =>
      grade(RIGHT, { solution: { feedbacks: [], validators: solution.validators.slice(1) } }),
    ).toThrow(/multiple-choice validator/);
    expect(() => grade([null, 'not a list'])).toThrow();
  });
});
