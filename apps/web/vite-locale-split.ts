import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Serves each catalogue (src/locales/{lang}.json, the one source of every string) as two
 * chunks: `virtual:locales/{lang}/core` — what sign-in and the public pages need — and
 * `virtual:locales/{lang}/screens` — the signed-in screens' texts, fetched with the first of
 * them. The /login page does not need the player's strings, and every kB of its first load is
 * fetched and parsed by cheap phones on slow networks (decision 0004's addendum).
 * `virtual:locales/{lang}/all` holds both, for a start on a signed-in screen: one request
 * instead of two before its first paint (lib/i18n.ts expectScreenTexts).
 */
export const CORE_SECTIONS = [
  'app',
  'common',
  'session',
  'shell',
  'browserNotice',
  'userMenu',
  'routes',
  'login',
  'recover',
  'register',
  'reset',
  'gate',
  'account',
  'legal',
  'notFound',
  'forbidden',
  'errors',
  'validation',
  'install',
  'newVersion',
];

const PREFIX = 'virtual:locales/';

export function localeSplit(localesDir: string): Plugin {
  return {
    name: 'parcours-locale-split',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      const match = /^\0virtual:locales\/([a-z]{2})\/(core|screens|all)$/.exec(id);
      if (!match) return null;
      const [, lang, part] = match as unknown as [string, string, 'core' | 'screens' | 'all'];
      const file = path.join(localesDir, `${lang}.json`);
      this.addWatchFile(file);
      const catalogue = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const wanted = Object.entries(catalogue).filter(
        ([key]) => part === 'all' || CORE_SECTIONS.includes(key) === (part === 'core'),
      );
      return `export default ${JSON.stringify(Object.fromEntries(wanted))};`;
    },
  };
}
