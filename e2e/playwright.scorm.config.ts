import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * The SCORM course journeys (issue 39 item 2, e2e/tests/scorm-courses.spec.ts): the base journeys'
 * server, with the golf examples fetched (e2e/scripts/fetch-scorm-examples.mjs: needs the network,
 * or SCORM_EXAMPLES_GIT naming a local clone) and imported as the `golf.localhost` tenant.
 *
 *   E2E_PORT=3105 npx playwright test -c e2e/playwright.scorm.config.ts
 */
const server = Array.isArray(base.webServer) ? base.webServer[0] : base.webServer;

export default defineConfig({
  ...base,
  testMatch: /scorm-courses\.spec\.ts$/,
  testIgnore: [],
  // Eighteen SCOs one after the other, each a page load on a busy machine.
  timeout: 180_000,
  webServer: {
    ...server!,
    // The build, the fetch and the import on a busy shared machine.
    timeout: 900_000,
    // E2E_SKIP_BUILD=1: the build of a run just before is reused (the journeys are iterated on).
    command: `node e2e/scripts/fetch-scorm-examples.mjs && ${process.env.E2E_SKIP_BUILD ? '' : 'npm run build && '}npm run import -- e2e/fixtures/scorm-examples-tenant && npm run start -w @parcours/api`,
  },
});
