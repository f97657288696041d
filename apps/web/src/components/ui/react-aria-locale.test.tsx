import { afterEach, describe, expect, it, vi } from 'vitest';

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
