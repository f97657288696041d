import { describe, expect, it } from 'vitest';
import type { Locale } from './entities';
import { pickDateLocale, pickLocale } from './locale';
import type { DateLocale } from './locale';

describe('pickLocale', () => {
  it.each<[string[], Locale | undefined, Locale]>([
    [['fr'], undefined, 'fr'],
    [['fr-FR'], undefined, 'fr'],
    [['fr-CA'], undefined, 'fr'],
    [['fr-CH'], undefined, 'fr'],
    [['fr_BE'], undefined, 'fr'],
    [['FR-ca'], undefined, 'fr'],
    [[' fr '], undefined, 'fr'],
    [['en-US'], undefined, 'en'],
    [['en'], 'fr', 'en'],
    [['de-DE', 'fr'], undefined, 'fr'],
    [['en-GB', 'fr-FR'], undefined, 'en'],
    [['fr-FR', 'en-US'], undefined, 'fr'],
    [['de', 'es'], undefined, 'en'],
    [['de', 'es'], 'fr', 'fr'],
    [[], undefined, 'en'],
    [[], 'fr', 'fr'],
    [[''], undefined, 'en'],
    [['french'], undefined, 'en'],
  ])('%j (fallback %s) → %s', (languages, fallback, expected) => {
    expect(pickLocale(languages, fallback)).toBe(expected);
  });
});

describe('pickDateLocale', () => {
  it.each<[string[], DateLocale]>([
    [['fr'], 'fr'],
    [['fr-FR'], 'fr'],
    [['fr-CA'], 'fr-ca'],
    [['fr_CA'], 'fr-ca'],
    [['fr-CH'], 'fr-ch'],
    [['fr-BE'], 'fr'],
    [['en-CA'], 'en'],
    [['de', 'fr-CH'], 'fr-ch'],
    [['de'], 'en'],
    [[], 'en'],
  ])('%j → %s', (languages, expected) => {
    expect(pickDateLocale(languages)).toBe(expected);
  });
});
