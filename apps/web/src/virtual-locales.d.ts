// Catalogue chunks served by vite-locale-split.ts (one source: src/locales/{lang}.json).
declare module 'virtual:locales/*' {
  // A script file (no top-level import) is needed for a wildcard module declaration.
  // eslint-disable-next-line @typescript-eslint/consistent-type-imports
  const texts: import('./lib/i18n').Catalogue;
  export default texts;
}
