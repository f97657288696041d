import { defineConfig } from 'vitest/config';

// One `npm test` runs every unit, component and API suite. Browser journeys (e2e/) and
// benchmarks (bench/) are separate commands because they need a built app and a browser.
export default defineConfig({
  test: {
    projects: ['packages/domain', 'apps/api', 'apps/web'],
  },
});
