import { LOCALES } from '@parcours/domain/entities';
import { dateLocaleOf, formatDate } from './format';

// The written-out month names must say exactly what Intl says (decision 0030).
const intl = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso));

const dates = [
  ...Array.from({ length: 12 }, (_, m) => `2025-${String(m + 1).padStart(2, '0')}-03T12:00:00`),
  '2024-02-29T00:00:00',
  '2026-12-31T23:59:59',
  '1999-01-01T00:30:00',
  '2030-08-15T08:00:00Z',
  '0999-05-05T12:00:00',
  '+012345-05-05T12:00:00Z',
];

describe('formatDate', () => {
  it.each(LOCALES.flatMap((locale) => dates.map((iso) => [locale, iso] as const)))(
    '%s %s reads as Intl writes it',
    (locale, iso) => {
      expect(formatDate(iso, locale)).toBe(intl(iso, locale));
    },
  );

  it.each([
    ['fr', '2025-02-03T12:00:00', '3 févr. 2025'],
    ['en', '2025-02-03T12:00:00', 'Feb 3, 2025'],
  ] as const)('%s %s is %s', (locale, iso, text) => {
    expect(formatDate(iso, locale)).toBe(text);
  });

  it.each([null, undefined, '', 'not a date'])('%s is no date', (iso) => {
    expect(formatDate(iso, 'fr')).toBe('');
  });
});

describe('dateLocaleOf (docs/product.md §9 date formats fr, fr-ca, fr-ch)', () => {
  const cases: [string, 'fr' | 'en', string[], string][] = [
    ['French from France', 'fr', ['fr-FR', 'en'], 'fr'],
    ['Canadian French', 'fr', ['fr-CA', 'en-CA'], 'fr-ca'],
    ['Swiss French, after an English preference', 'fr', ['en-GB', 'fr-CH'], 'fr-ch'],
    ['French with no region', 'fr', ['fr'], 'fr'],
    ['English interface, whatever the browser', 'en', ['fr-CA'], 'en'],
    ['no browser list (the server)', 'fr', [], 'fr'],
  ];
  it.each(cases)('%s', (_name, language, browser, expected) => {
    expect(dateLocaleOf(language, browser)).toBe(expected);
  });

  it('writes Canadian and Swiss French dates with Intl', () => {
    const iso = '2025-02-03T12:00:00';
    expect(formatDate(iso, 'fr-ca')).toBe(
      new Intl.DateTimeFormat('fr-ca', { day: 'numeric', month: 'short', year: 'numeric' }).format(
        new Date(iso),
      ),
    );
    expect(formatDate(iso, 'fr-ch')).toContain('2025');
  });
});
