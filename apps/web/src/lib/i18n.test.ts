import { ERROR_CODES, SPEC_ERROR_CODES } from '@parcours/domain/errors';
import { VALIDATION_MESSAGES } from '@parcours/domain/schemas';
import en from '../locales/en.json';
import fr from '../locales/fr.json';
import { changeLanguage, keyFromData, t, type Catalogue } from './i18n';

function keys(node: Catalogue, prefix = ''): string[] {
  return Object.entries(node).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

describe('catalogues', () => {
  it('fr and en have exactly the same keys', () => {
    expect(keys(fr).sort()).toEqual(keys(en).sort());
  });

  it('no text is empty', () => {
    for (const catalogue of [fr, en]) {
      for (const key of keys(catalogue)) expect(t(keyFromData(key)), key).not.toBe('');
    }
  });

  it.each(ERROR_CODES)('has a title and a message for %s in both languages', (code) => {
    for (const catalogue of [fr, en] as Catalogue[]) {
      const entry = (catalogue.errors as Catalogue)[code] as Catalogue;
      expect(typeof entry.title).toBe('string');
      expect(typeof entry.message).toBe('string');
    }
  });

  // Schemas report catalogue keys; the texts shown are the catalogues', kept equal to the domain's.
  it.each(Object.entries(VALIDATION_MESSAGES))(
    'holds the validation message %s in both languages',
    async (key, texts) => {
      await changeLanguage('fr');
      expect(t(keyFromData(key))).toBe(texts.fr);
      await changeLanguage('en');
      expect(t(keyFromData(key))).toBe(texts.en);
    },
  );

  it('quotes the spec French texts', async () => {
    await changeLanguage('fr');
    expect(t('app.fallbackTitle')).toBe('Espace Apprenant');
    expect(t('login.failureTitle')).toBe('Erreur de connexion');
    expect(t('forbidden.title')).toBe('Accès restreint');
    expect(SPEC_ERROR_CODES).toContain('Forbidden');
  });
});

describe('t()', () => {
  it('interpolates and picks plural forms', async () => {
    await changeLanguage('en');
    expect(t('home.class.teachers', { count: 1, names: 'Ana' })).toBe('Trainer: Ana');
    expect(t('home.class.teachers', { count: 2, names: 'Ana, Bo' })).toBe('Trainers: Ana, Bo');
    expect(t('pager.page', { page: 3 })).toBe('Page 3');
  });

  // Issue 37: the French player wrote "9.3 / 10" where the calculator writes a comma.
  it.each([
    ['fr', 9.3, 'Votre réponse est enregistrée. Score sur cette page : 9,3 / 10.'],
    ['en', 9.3, 'Your answer is recorded. Score for this page: 9.3 / 10.'],
    ['fr', 10, 'Votre réponse est enregistrée. Score sur cette page : 10 / 10.'],
  ] as const)('writes a decimal number as %s does (%s)', async (lang, actual, text) => {
    await changeLanguage(lang);
    expect(t('player.results.score', { actual, max: 10 })).toBe(text);
  });

  it('sets <html lang> and falls back to the key for unknown keys', async () => {
    await changeLanguage('fr');
    expect(document.documentElement.lang).toBe('fr');
    // Issue 26 item 5: an unknown key is a type error; the runtime still falls back.
    // @ts-expect-error 'nope.missing' is in no catalogue
    expect(t('nope.missing')).toBe('nope.missing');
    expect(t(keyFromData('nope.missing'), { defaultValue: 'x' })).toBe('x');
  });
});

// Issue 11: a start on a signed-in screen asks for one file of texts, not two (lib/i18n.ts).
describe('texts of a signed-in start', () => {
  afterEach(() => {
    vi.doUnmock('virtual:locales/fr/core');
    vi.doUnmock('virtual:locales/fr/screens');
    vi.resetModules();
  });

  it('come whole from one file, and the screens need nothing more', async () => {
    vi.resetModules();
    vi.doMock('virtual:locales/fr/core', () => {
      throw new Error('core asked');
    });
    vi.doMock('virtual:locales/fr/screens', () => {
      throw new Error('screens asked');
    });
    const i18n = await import('./i18n');
    i18n.expectScreenTexts();
    await i18n.changeLanguage('fr');
    expect(i18n.t('login.title')).toBe(fr.login.title);
    expect(i18n.t('home.offline.title')).toBe(fr.home.offline.title);
    await expect(i18n.loadScreenTexts()).resolves.toBeUndefined();
  });

  it("asked for while the language changes, come in that language only (a drawn page's start)", async () => {
    vi.resetModules();
    vi.doMock('virtual:locales/en/all', () => {
      throw new Error('English asked');
    });
    vi.doMock('virtual:locales/en/screens', () => {
      throw new Error('English asked');
    });
    const i18n = await import('./i18n');
    i18n.expectScreenTexts();
    // boot changes to the page's language while the signed-in layer asks for the screens' texts.
    await Promise.all([i18n.changeLanguage('fr'), i18n.loadScreenTexts()]);
    expect(i18n.t('home.offline.title')).toBe(fr.home.offline.title);
    vi.doUnmock('virtual:locales/en/all');
    vi.doUnmock('virtual:locales/en/screens');
  });

  // Issue 37: on the English tenant in a French browser, boot asks for French (the browser's)
  // and then the learner's own English; French, slower to arrive, was applied last.
  it('the language asked for last wins, whichever arrives first', async () => {
    vi.resetModules();
    let frenchIn: () => void = () => undefined;
    const frenchArrives = new Promise<void>((resolve) => (frenchIn = resolve));
    vi.doMock('virtual:locales/fr/core', async () => {
      await frenchArrives;
      return { default: fr };
    });
    const i18n = await import('./i18n');
    const browser = i18n.changeLanguage('fr');
    await i18n.changeLanguage('en');
    frenchIn();
    await browser;
    expect(i18n.getLanguage()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('login.title')).toBe(en.login.title);
  });

  it('otherwise come in two parts: the core first, the screens when asked', async () => {
    vi.resetModules();
    const i18n = await import('./i18n');
    await i18n.changeLanguage('fr');
    expect(i18n.t('login.title')).toBe(fr.login.title);
    expect(i18n.t('home.offline.title')).toBe('home.offline.title');
    await i18n.loadScreenTexts();
    expect(i18n.t('home.offline.title')).toBe(fr.home.offline.title);
  });
});
