import { vi } from 'vitest';
import {
  actionInputs,
  allAnswered,
  errorTextKeys,
  firstEnabledSection,
  initialAnswers,
  soleChoice,
  uniqueUnlockedLessons,
} from './progression-model';

describe('progression rules', () => {
  it('keeps unlocked lessons unique by id and by title', () => {
    expect(
      uniqueUnlockedLessons([
        { id: 'a', title: 'Fractions' },
        { id: 'a', title: 'Fractions again' },
        { id: 'b', title: ' fractions ' },
        { id: 'c', title: 'Safety' },
      ]),
    ).toEqual([
      { id: 'a', title: 'Fractions' },
      { id: 'c', title: 'Safety' },
    ]);
    expect(uniqueUnlockedLessons(undefined)).toEqual([]);
  });

  it.each([
    [[], null],
    [['x'], 'x'],
    [['x', 'y'], null],
  ])('pre-selects only a sole option (%j)', (options, expected) => {
    expect(soleChoice(options)).toBe(expected);
  });

  it('starts questions with a sole choice answered', () => {
    const one = { label: 'Q1', choices: [{ response: 'Yes', action: { target: 'l2' } }] };
    const two = { label: 'Q2', choices: [one.choices[0]!, { response: 'No', action: { target: 'l3' } }] };
    expect(initialAnswers([one, two])).toEqual([0, null]);
    expect(allAnswered([0, null])).toBe(false);
    expect(allAnswered([0, 1])).toBe(true);
    expect(allAnswered([])).toBe(false);
  });

  it('opens a lesson at its first enabled section, or lets the server choose', () => {
    expect(firstEnabledSection({ enabledSectionIds: ['s2', 's3'] })).toBe('s2');
    expect(firstEnabledSection({ enabledSectionIds: [] })).toBeNull();
  });

  it("uses an error code's own texts, else the generic ones", () => {
    const known = new Set([
      'errors.LESSON_SKIPPED.title',
      'errors.LESSON_SKIPPED.message',
      'errors.LESSON_SKIPPED.button',
    ]);
    expect(errorTextKeys('LESSON_SKIPPED', (key) => known.has(key))).toEqual({
      title: 'errors.LESSON_SKIPPED.title',
      message: 'errors.LESSON_SKIPPED.message',
      button: 'errors.LESSON_SKIPPED.button',
    });
    expect(errorTextKeys('SOMETHING_NEW', () => false)).toEqual({
      title: 'errors.UNDEFINED.title',
      message: 'errors.UNDEFINED.message',
      button: null,
    });
  });
});

describe('actionInputs (docs/product.md §5: a missing index only logs a warning)', () => {
  const cases: [string, (number | null | undefined)[], { actionIdx: number; choiceIdx: number }[] | null][] =
    [
      [
        'every question answered',
        [1, 0],
        [
          { actionIdx: 0, choiceIdx: 1 },
          { actionIdx: 1, choiceIdx: 0 },
        ],
      ],
      ['a missing choice index', [1, null], null],
      ['an undefined choice index', [undefined], null],
      ['a negative index', [-1], null],
      ['no question at all', [], null],
    ];
  it.each(cases)('%s', (_name, answers, expected) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(actionInputs(answers)).toEqual(expected);
    expect(warn).toHaveBeenCalledTimes(expected === null ? 1 : 0);
    warn.mockRestore();
  });
});
