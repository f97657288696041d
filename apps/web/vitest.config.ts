import { defineProject } from 'vitest/config';

// Separate from vite.config.ts: vitest runs its own Vite major (whose built-in transform already
// uses React's automatic JSX runtime), so the React plugin is not needed for tests.
export default defineProject({
  test: {
    name: 'web',
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
