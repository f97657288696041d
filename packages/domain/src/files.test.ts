import { describe, expect, it } from 'vitest';
import { formatFileSize, truncateFileName } from './files';

describe('formatFileSize (SPEC §9 o, Ko, Mo, Go, To)', () => {
  it.each([
    [0, 'fr', '0 o'],
    [1023, 'fr', '1023 o'],
    [1024, 'fr', '1 Ko'],
    [1536, 'fr', '1,5 Ko'],
    [1536, 'en', '1.5 Ko'],
    [5 * 1024 ** 2, 'fr', '5 Mo'],
    [1024 ** 2 - 1, 'fr', '1 Mo'],
    [3.25 * 1024 ** 3, 'en', '3.3 Go'],
    [2 * 1024 ** 4, 'fr', '2 To'],
    [4096 * 1024 ** 4, 'en', '4096 To'],
    [-1, 'fr', ''],
  ])('%s bytes (%s) → %s', (bytes, locale, expected) =>
    expect(formatFileSize(bytes, locale).replace(/\u202f|\u00a0/g, ' ')).toBe(expected),
  );

  // The English catalogue's units (widgets.sizeUnits); a list of the wrong length falls back.
  const EN = ['B', 'KB', 'MB', 'GB', 'TB'];
  it.each([
    [1023, EN, '1023 B'],
    [1536, EN, '1.5 KB'],
    [5 * 1024 ** 2, EN, '5 MB'],
    [3.25 * 1024 ** 3, EN, '3.3 GB'],
    [2 * 1024 ** 4, EN, '2 TB'],
    [1536, ['B', 'KB'], '1.5 Ko'],
  ])('%s bytes with %j → %s', (bytes, units, expected) =>
    expect(formatFileSize(bytes, 'en', units)).toBe(expected),
  );
});

describe('truncateFileName (SPEC §9 56 characters)', () => {
  const long = `${'a'.repeat(60)}.pdf`;
  it.each([
    ['short.pdf', 'short.pdf'],
    ['x'.repeat(56), 'x'.repeat(56)],
    ['x'.repeat(57), `${'x'.repeat(55)}…`],
    [long, `${'a'.repeat(55)}…`],
  ])('%s', (name, expected) => {
    const result = truncateFileName(name);
    expect(result).toBe(expected);
    expect(Array.from(result).length).toBeLessThanOrEqual(56);
  });
  it('counts characters, not UTF-16 units', () => {
    expect(truncateFileName('é'.repeat(56))).toBe('é'.repeat(56));
    expect(Array.from(truncateFileName('😀'.repeat(60))).length).toBe(56);
  });
});
