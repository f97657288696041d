import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';

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

/**
 * React Aria's own texts (a popover's hidden "Dismiss" button, read by screen readers) follow the
 * app's language, not the browser's: a French learner on an English browser hears French.
 */
describe("React Aria's own texts", () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    const { changeLanguage } = await import('../../lib/i18n');
    await changeLanguage('en');
  });

  it.each([
    ['fr', 'en-US', 'Rejeter'],
    ['en', 'fr-FR', 'Dismiss'],
  ])('app in %s on a %s browser: the popover’s dismiss button says %s', async (app, browser, label) => {
    vi.resetModules();
    vi.spyOn(navigator, 'language', 'get').mockReturnValue(browser);
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue([browser]);
    const { changeLanguage } = await import('../../lib/i18n');
    const { addCatalogue } = await import('../../lib/i18n');
    const fr = (await import('../../locales/fr.json')).default;
    const en = (await import('../../locales/en.json')).default;
    addCatalogue('fr', fr);
    addCatalogue('en', en);
    await changeLanguage(app as 'fr' | 'en');
    const { cleanup, render, screen } = await import('@testing-library/react');
    const { createRef } = await import('react');
    const { GlossaryPopover } = await import('./glossary/GlossaryPopover');
    // The fresh modules' content HTML cleaner, as the player's loader waits for it (decision 0033).
    await (await import('../../lib/sanitize-html')).sanitizerReady();
    const trigger = createRef<HTMLButtonElement>();
    render(
      <>
        <button ref={trigger}>term</button>
        <GlossaryPopover
          term={{ title: 'Term', definition: '<p>Definition</p>' } as never}
          triggerRef={trigger}
          onClose={() => undefined}
        />
      </>,
    );
    await screen.findAllByRole('dialog', { hidden: true });
    const labels = screen
      .queryAllByRole('button', { hidden: true })
      .map((button) => button.getAttribute('aria-label') ?? button.textContent)
      .filter((name) => name !== 'term');
    cleanup();
    expect(labels.length).toBeGreaterThan(0);
    expect(new Set(labels)).toEqual(new Set([label]));
  });
});

describe("the app's locale given to React Aria", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    ['fr-FR', false, 0],
    ['en-US', false, 0],
    ['ar-EG', true, 1],
  ])(
    '%s: right to left %s, with %i Intl.Locale call(s) (decision 0030: no ICU for fr and en)',
    async (locale, rtl, calls) => {
      vi.resetModules();
      const Original = Intl.Locale;
      let made = 0;
      // Counts constructions and stays a real Intl.Locale (maximize, getTextInfo).
      Object.defineProperty(Intl, 'Locale', {
        configurable: true,
        writable: true,
        value: class extends Original {
          constructor(...args: ConstructorParameters<typeof Intl.Locale>) {
            super(...args);
            made++;
          }
        },
      });
      onTestFinished(() => {
        Object.defineProperty(Intl, 'Locale', { configurable: true, writable: true, value: Original });
      });
      const { I18nProvider, useLocale } = await import('react-aria');
      const { renderHook } = await import('@testing-library/react');
      const { result } = renderHook(() => useLocale(), {
        wrapper: ({ children }) => <I18nProvider locale={locale}>{children}</I18nProvider>,
      });
      expect(result.current).toEqual({ locale, direction: rtl ? 'rtl' : 'ltr' });
      expect(made).toBe(calls);
    },
  );
});
