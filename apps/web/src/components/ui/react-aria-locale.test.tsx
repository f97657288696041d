import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * preact-compat.ts patches React Aria's default locale: French and English skip its Intl checks,
 * whose first call loads ICU (issue 11). A fresh React Aria per case: the locale is worked out
 * when its module is first evaluated.
 */
async function defaultLocaleFor(language: string) {
  vi.resetModules();
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(language);
  const supported = vi.spyOn(Intl.DateTimeFormat, 'supportedLocalesOf');
  const { useLocale } = await import('react-aria');
  const { result } = renderHook(() => useLocale());
  return { ...result.current, intlCalls: supported.mock.calls.length };
}

describe("React Aria's default locale (patched for issue 11)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    ['fr-FR', 'fr-FR'],
    ['fr', 'fr'],
    ['en-GB', 'en-GB'],
    ['EN-us', 'EN-us'],
  ])('%s: no Intl call, left to right', async (language, locale) => {
    expect(await defaultLocaleFor(language)).toEqual({ locale, direction: 'ltr', intlCalls: 0 });
  });

  it('another language still goes through React Aria’s checks', async () => {
    const { locale, direction, intlCalls } = await defaultLocaleFor('ar-EG');
    expect(locale).toBe('ar-EG');
    expect(direction).toBe('rtl');
    expect(intlCalls).toBeGreaterThan(0);
  });
});
