import { LOCALES } from '@parcours/domain/entities';
import { pluralCategory } from './plural';

// Every written-out rule must give what Intl.PluralRules gives (decision 0030).
const counts = [
  0,
  1,
  2,
  3,
  5,
  10,
  11,
  21,
  100,
  101,
  1.5,
  0.5,
  1.0,
  2.5,
  -1,
  -2,
  -0,
  999_999,
  1_000_000,
  2_000_000,
  1_500_000,
  1_000_000.5,
  10_000_000,
  NaN,
  Infinity,
  -Infinity,
];

describe('pluralCategory', () => {
  it.each(LOCALES.flatMap((lang) => counts.map((count) => [lang, count] as const)))(
    '%s %s is the category Intl gives',
    (lang, count) => {
      expect(pluralCategory(lang, count)).toBe(new Intl.PluralRules(lang).select(count));
    },
  );

  it.each([
    ['fr', 0, 'one'],
    ['fr', 1.5, 'one'],
    ['fr', 2, 'other'],
    ['fr', 1_000_000, 'many'],
    ['en', 0, 'other'],
    ['en', 1, 'one'],
    ['en', 1.5, 'other'],
  ] as const)('%s %s is %s', (lang, count, category) => {
    expect(pluralCategory(lang, count)).toBe(category);
  });

  it('asks Intl for any other language', () => {
    expect(pluralCategory('ru', 3)).toBe('few');
  });
});
