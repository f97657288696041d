import { describe, expect, it } from 'vitest';
import type { PageResults } from '../entities';
import { withoutKey } from './answer-key';
import { exerciseRegistry } from './registry';
import type { RowCorrection } from './registry';

/** Decision 0009: a retryable page's results keep right/wrong per item, never the expected answers. */
const base: PageResults = {
  answerRatios: [0],
  outcome: 'incorrect',
  score: { actual: 0, max: 10 },
  feedbacks: [],
  correction: [],
  hints: { messages: [], remaining: 0, nextMalus: null },
  retryAllowed: true,
};

describe('each type drops its key', () => {
  it.each<[string, RowCorrection, unknown]>([
    [
      'multiple-choice',
      {
        type: 'multiple-choice',
        ratio: 0,
        correct: false,
        detail: { items: ['wrong', 'missing', 'neutral', 'correct'] },
      },
      { items: ['wrong', 'neutral', 'neutral', 'correct'] },
    ],
    [
      'image-cliquable',
      { type: 'image-cliquable', ratio: 0, correct: false, detail: { items: ['missing', 'wrong'] } },
      { items: ['neutral', 'wrong'] },
    ],
    [
      'combined-choice',
      {
        type: 'combined-choice',
        ratio: 0,
        correct: false,
        detail: { items: ['wrong', 'missing', 'neutral'] },
      },
      { items: ['wrong', 'neutral', 'neutral'] },
    ],
    [
      'pick-words',
      { type: 'pick-words', ratio: 0, correct: false, detail: { items: ['wrong', 'missing', 'neutral'] } },
      { items: ['wrong', 'neutral', 'neutral'] },
    ],
    [
      'drag-n-drop',
      {
        type: 'drag-n-drop',
        ratio: 0,
        correct: false,
        detail: {
          items: [
            { status: 'wrong', placed: 0, expected: 1 },
            { status: 'missing', placed: null, expected: 0 },
            { status: 'correct', placed: 1, expected: 1 },
          ],
        },
      },
      {
        items: [
          { status: 'wrong', placed: 0 },
          { status: 'neutral', placed: null },
          { status: 'correct', placed: 1 },
        ],
      },
    ],
    [
      'free-answer text',
      { type: 'free-answer', ratio: 0, correct: false, detail: { kind: 'text', accepted: ['forty-two'] } },
      { kind: 'text' },
    ],
    [
      'free-answer number',
      {
        type: 'free-answer',
        ratio: 0,
        correct: false,
        detail: { kind: 'number', value: 12.5, tolerance: 0.5, read: 3 },
      },
      { kind: 'number', read: 3 },
    ],
  ])('%s', (_name, row, detail) => {
    const out = withoutKey({ ...base, correction: [row, null] });
    expect(out.correction).toEqual([{ ...row, detail }, null]);
    expect(out.keyWithheld).toBe(true);
  });

  it('every registered type has a withoutKey', () => {
    for (const grader of Object.values(exerciseRegistry)) expect(typeof grader.withoutKey).toBe('function');
  });
});

describe('feedbacks while a retry is open', () => {
  const right: RowCorrection = {
    type: 'combined-choice',
    ratio: 1,
    correct: true,
    detail: { items: ['correct', 'neutral'] },
  };
  const wrong: RowCorrection = {
    type: 'combined-choice',
    ratio: 0,
    correct: false,
    detail: { items: ['wrong', 'missing'] },
  };
  it.each<[string, PageResults['feedbacks'][number], boolean]>([
    [
      'a general feedback (block-level, not answer-specific)',
      { source: 'general', preset: 'info', message: 'm', rowIndex: null },
      true,
    ],
    [
      "a wrong row's incorrect message",
      { source: 'answer', preset: 'danger', message: 'm', rowIndex: 1 },
      false,
    ],
    [
      "a wrong row's message about the learner's own pick",
      { source: 'answer', preset: 'warning', message: 'm', rowIndex: 1 },
      true,
    ],
    ["a right row's praise", { source: 'answer', preset: 'success', message: 'm', rowIndex: 0 }, true],
  ])('%s: kept %s', (_name, feedback, kept) => {
    const out = withoutKey({ ...base, correction: [right, wrong], feedbacks: [feedback] });
    expect(out.feedbacks).toEqual(kept ? [feedback] : []);
  });
});
