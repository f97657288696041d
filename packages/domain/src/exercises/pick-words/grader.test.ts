import { describe, expect, it } from 'vitest';
import type { PublicRow } from '../exercise-grader';
import type { Answer } from './grader';
import { answerSchema, grade } from './grader';

// "Le client veut une voiture sûre, économique et confortable ; une voiture sûre avant tout."
const words = [
  'Le',
  'client',
  'veut',
  'une',
  'voiture',
  'sûre',
  'économique',
  'et',
  'confortable',
  'une',
  'voiture',
  'sûre',
  'avant',
  'tout',
];
const row: PublicRow = { type: 'pick-words', text: words.join(' '), words };
// Marked: the first "sûre", "économique", "confortable".
const expected = { positions: [5, 6, 8], words: ['sûre', 'économique', 'confortable'] };

describe('pick-words grade by positions: ratio = max(0, (right − wrong) / expected)', () => {
  it.each<[string, number[], number, boolean]>([
    ['every marked word', [5, 6, 8], 1, true],
    ['two of three', [5, 8], 2 / 3, false],
    ['all plus one wrong', [5, 6, 8, 1], 2 / 3, false],
    ['the other occurrence of a marked word', [11, 6, 8], 1 / 3, false],
    ['only wrong words', [0, 1, 2], 0, false],
    ['nothing picked', [], 0, false],
  ])('%s → %d', (_label, answer, ratio, correct) => {
    const r = grade(expected, answer, row);
    expect(r.ratio).toBeCloseTo(ratio, 12);
    expect(r.correct).toBe(correct);
  });
});

describe('pick-words grade by words: a word stands for all its occurrences', () => {
  it.each<[string, string[], number, boolean]>([
    ['every marked word', ['sûre', 'économique', 'confortable'], 1, true],
    ['case and accents ignored', ['SURE', 'Economique', 'confortable'], 1, true],
    ['two of three', ['sûre', 'confortable'], 2 / 3, false],
    ['all plus one wrong', ['sûre', 'économique', 'confortable', 'client'], 2 / 3, false],
    ['only wrong words', ['client', 'voiture'], 0, false],
  ])('%s → %d', (_label, answer, ratio, correct) => {
    const r = grade(expected, answer, row);
    expect(r.ratio).toBeCloseTo(ratio, 12);
    expect(r.correct).toBe(correct);
  });

  it('marks positions: the expected occurrence, the other occurrence neutral, wrong words wrong', () => {
    const items = grade(expected, ['sûre', 'client'], row).detail.items;
    expect(items[5]).toBe('correct');
    expect(items[11]).toBe('neutral');
    expect(items[1]).toBe('wrong');
    expect(items[6]).toBe('missing');
  });
});

describe('pick-words answer schema: positions or words of the text', () => {
  it.each<[string, unknown, boolean]>([
    ['nothing', [], true],
    ['positions', [5, 6, 8], true],
    ['the last position', [13], true],
    ['words', ['sûre', 'client'], true],
    ['a word with other case and accents', ['SURE'], true],
    ['a word with decomposed accents', ['su\u0302re'], true],
    ['a duplicate position', [5, 5], false],
    ['a position out of range', [14], false],
    ['a negative position', [-1], false],
    ['a fractional position', [1.5], false],
    ['a word not in the text', ['bateau'], false],
    ['the same word twice', ['sûre', 'Sure'], false],
    ['positions and words mixed', [5, 'sûre'], false],
    ['a whole sentence as one word', ['une voiture sûre'], false],
    ['a string where a list is expected', 'sûre', false],
    ['an object', { 5: true }, false],
    ['null', null, false],
    ['a huge array of positions', Array.from({ length: 10_000 }, (_, i) => i), false],
    ['a huge array of words', Array.from({ length: 10_000 }, () => 'une'), false],
  ])('%s → %s', (_label, answer, ok) => {
    expect(answerSchema(row).safeParse(answer as Answer).success).toBe(ok);
  });
});
