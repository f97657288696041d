import { describe, expect, it } from 'vitest';
import type { Expected } from './grader';
import {
  answerFeedbacks,
  answerSchema,
  comparableText,
  expectedSchema,
  grade,
  normaliseFreeAnswer,
  parseNumberAnswer,
} from './grader';

const row = { type: 'free-answer' };
// Accepted strings are stored normalised by the importer.
const text = (...accept: string[]): Expected => ({ kind: 'text', accept: accept.map(normaliseFreeAnswer) });
const number = (value: number, tolerance = 0): Expected => ({ kind: 'number', value, tolerance });

describe('normaliseFreeAnswer (also what the importer stores)', () => {
  it.each<[string, string]>([
    ['  Preuve  ', 'preuve'],
    ['Sécurité', 'securite'],
    ['ÉLÈVE', 'eleve'],
    ['l’entreprise', "l'entreprise"],
    ['l‘entreprise', "l'entreprise"],
    ['l`entreprise', "l'entreprise"],
    ['garde   du\tcorps', 'garde du corps'],
    ['ﬁn', 'fin'],
    ['Noël', 'noel'],
  ])('%j → %j', (input, output) => {
    expect(normaliseFreeAnswer(input)).toBe(output);
  });
});

describe('comparableText drops final punctuation for comparison only', () => {
  it.each<[string, string]>([
    ['Preuve.', 'preuve'],
    ['Preuve !', 'preuve'],
    ['preuve...', 'preuve'],
    ['preuve…', 'preuve'],
    ['Qui ?', 'qui'],
    ['a.b', 'a.b'],
  ])('%j → %j', (input, output) => {
    expect(comparableText(input)).toBe(output);
  });
});

describe('parseNumberAnswer', () => {
  it.each<[string, number | null]>([
    ['60', 60],
    ['60,5', 60.5],
    ['60.5', 60.5],
    [' 60 ', 60],
    ['60 €', 60],
    ['60%', 60],
    ['-3', -3],
    ['+3', 3],
    ['1 000', 1000],
    ['1\u202f000,5', 1000.5],
    ['', null],
    ['soixante', null],
    // Any trailing non-digits read as a unit, so a letter O typed for a zero is dropped.
    ['6O', 6],
    ['12 cm', 12],
    ['1,5,5', null],
    ['€60', null],
  ])('%j → %s', (input, output) => {
    expect(parseNumberAnswer(input)).toBe(output);
  });
});

describe('free-answer grade, text: 1 when the normalised answer is accepted, else 0', () => {
  it.each<[string, Expected, string, boolean]>([
    ['exact', text('Preuve'), 'Preuve', true],
    ['case and spaces', text('Preuve'), '  PREUVE ', true],
    ['trailing dot', text('Preuve'), 'Preuve.', true],
    ['accents dropped', text('Sécurité'), 'securite', true],
    ['accents added', text('securite'), 'Sécurité', true],
    ['typographic apostrophe', text("l'entreprise"), 'l’entreprise', true],
    ['inner spaces', text('garde du corps'), 'garde   du corps', true],
    ['one of several accepted', text('112', 'cent douze'), 'Cent douze', true],
    ['accepted ending with a dot', text('etc.'), 'etc', true],
    ['another word', text('Preuve'), 'Prix', false],
    ['a longer answer containing it', text('Preuve'), 'la preuve', false],
    ['empty', text('Preuve'), '', false],
    ['blank', text('Preuve'), '   ', false],
    ['only punctuation', text('Preuve'), '...', false],
  ])('%s', (_label, expected, answer, correct) => {
    expect(grade(expected, answer)).toMatchObject({ ratio: correct ? 1 : 0, correct });
  });
});

describe('free-answer grade, number: 1 within tolerance, else 0', () => {
  it.each<[string, Expected, string, boolean]>([
    ['exact', number(60), '60', true],
    ['with a unit', number(60), '60 €', true],
    ['comma decimal', number(0.6), '0,6', true],
    ['dot decimal', number(0.6), '0.6', true],
    ['trailing zero', number(60), '60,0', true],
    ['off by one, no tolerance', number(60), '61', false],
    ['upper edge of tolerance', number(60, 0.5), '60,5', true],
    ['lower edge of tolerance', number(60, 0.5), '59.5', true],
    ['just beyond tolerance', number(60, 0.5), '60,51', false],
    ['float edge 0.3 ± 0.1 → 0.4', number(0.3, 0.1), '0,4', true],
    ['float edge 0.3 ± 0.1 → 0.2', number(0.3, 0.1), '0.2', true],
    ['negative value', number(-5, 0), '-5', true],
    ['sign matters', number(-5, 0), '5', false],
    ['words', number(60), 'soixante', false],
    ['empty', number(60), '', false],
    ['huge number', number(60, 1), '9'.repeat(400), false],
  ])('%s', (_label, expected, answer, correct) => {
    expect(grade(expected, answer)).toMatchObject({ ratio: correct ? 1 : 0, correct });
  });

  it('reports what it read', () => {
    expect(grade(number(60, 1), '59,5 €').detail).toEqual({
      kind: 'number',
      value: 60,
      tolerance: 1,
      read: 59.5,
    });
  });
});

describe('free-answer answer schema: a string of at most 1000 characters', () => {
  it.each<[string, unknown, boolean]>([
    ['a word', 'preuve', true],
    ['empty', '', true],
    ['1000 characters', 'a'.repeat(1000), true],
    ['1001 characters', 'a'.repeat(1001), false],
    ['a number', 60, false],
    ['a list', ['preuve'], false],
    ['an object', { text: 'preuve' }, false],
    ['null', null, false],
    ['a huge array', Array.from({ length: 10_000 }, () => 'a'), false],
  ])('%s → %s', (_label, answer, ok) => {
    expect(answerSchema(row).safeParse(answer).success).toBe(ok);
  });
});

describe('free-answer stored expected', () => {
  it.each<[unknown, boolean]>([
    [{ kind: 'text', accept: ['preuve'] }, true],
    [{ kind: 'number', value: 60, tolerance: 0 }, true],
    [{ kind: 'text', accept: [] }, false],
    [{ kind: 'number', value: 60, tolerance: -1 }, false],
    [{ accept: ['preuve'] }, false],
  ])('%j → %s', (value, ok) => {
    expect(expectedSchema.safeParse(value).success).toBe(ok);
  });
});

describe('free-answer answer-specific feedbacks', () => {
  const fb = {
    answers: [
      { match: ['20', '20 €'], message: 'That is the discount.' },
      { match: ['prix'], message: 'Price is part of the offer.' },
    ],
  };
  it.each<[string, Expected, string, string[]]>([
    ['text match', number(60), '20 €', ['That is the discount.']],
    ['number written otherwise', number(60), '20,0', ['That is the discount.']],
    ['normalised text match', text('preuve'), 'Prix.', ['Price is part of the offer.']],
    ['no match', number(60), '45', []],
    ['empty answer', number(60), '', []],
  ])('%s', (_label, expected, answer, messages) => {
    expect(answerFeedbacks(grade(expected, answer), answer, fb).map((f) => f.message)).toEqual(messages);
  });
});
