import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { localeSplit } from './vite-locale-split';

// Separate from vite.config.ts (no PWA, badge or chunking plugins), on the same Vite and with the
// same React transform as the build, so tests and the production build compile code alike.
export default defineProject({
  plugins: [localeSplit(path.resolve(import.meta.dirname, 'src/locales')), react()],
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
    // A test that asserts nothing fails (issue 40 item 6): it could not fail otherwise.
    expect: { requireAssertions: true },
  },
});
