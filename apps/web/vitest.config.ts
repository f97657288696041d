import path from 'node:path';
import { defineProject } from 'vitest/config';
import { localeSplit } from './vite-locale-split';

// Separate from vite.config.ts: vitest runs its own Vite major (whose built-in transform already
// uses React's automatic JSX runtime), so the React plugin is not needed for tests.
export default defineProject({
  plugins: [localeSplit(path.resolve(import.meta.dirname, 'src/locales'))],
  resolve: {
    // The PWA plugin's virtual module exists only in the build; registration is off in tests anyway.
    alias: [
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
    // The first test of a file that opens a dialog or a menu loads React Aria, which takes a while
    // on a busy machine.
    testTimeout: 20_000,
  },
});
