import path from 'node:path';
import { defineProject } from 'vitest/config';
import { localeSplit } from './vite-locale-split';
import { preactAlias, preactReactAriaPatches } from './preact-compat';

// Separate from vite.config.ts: vitest runs its own Vite major (whose built-in transform already
// uses React's automatic JSX runtime), so the React plugin is not needed for tests.
export default defineProject({
  plugins: [localeSplit(path.resolve(import.meta.dirname, 'src/locales')), preactReactAriaPatches()],
  // The PWA plugin's virtual module exists only in the build; registration is off in tests anyway.
  resolve: {
    // The ES module builds of the libraries (a CommonJS one would require React, which no alias reaches).
    conditions: ['module', 'browser', 'development'],
    alias: [
      ...preactAlias,
      // Its package's main entry is CommonJS, whose require('react-dom') no alias reaches.
      {
        find: /^@testing-library\/react$/,
        replacement: path.resolve(
          import.meta.dirname,
          '../../node_modules/@testing-library/react/dist/@testing-library/react.esm.js',
        ),
      },
      {
        find: 'virtual:pwa-register',
        replacement: path.resolve(import.meta.dirname, 'src/test/pwa-register.ts'),
      },
    ],
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // Decision 0023: React Aria and the other React libraries are transformed by Vite (below)
    // instead of loaded by Node, so the first test that opens a dialog or a menu waits seconds
    // for their modules on a busy machine.
    testTimeout: 20_000,
    // Libraries that import `react` run through Vite's resolver (not Node's), so that they get
    // Preact from the alias above (and React Aria its patches), as in the build.
    server: {
      deps: {
        inline: [
          /\/node_modules\/(react-aria|react-aria-components|react-stately)\//,
          /\/node_modules\/(react-hook-form|@hookform\/resolvers)\//,
          /\/node_modules\/(@testing-library\/react|use-sync-external-store)\//,
        ],
      },
    },
  },
});
