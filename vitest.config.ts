import { defineConfig } from 'vitest/config';

// One `npm test` runs every unit, component and API suite, and the bench's pure helpers. Browser
// journeys (e2e/) and the benchmarks themselves are separate commands: they need a built app and a browser.
export default defineConfig({
  test: {
    projects: ['packages/domain', 'apps/api', 'apps/web', 'bench'],
  },
});
