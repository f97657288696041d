import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Browser journeys against the real server (API + built web app) on a throwaway SQLite data dir,
 * with the demo content imported as `npm start` seeds it, plus the journeys' own probe tenant
 * (fixtures/package-tenant: a hostile e-learning package that must never reach the demo).
 * Chromium comes from Debian (/usr/bin/chromium), never from a download (docs/architecture.md §3).
 */
const port = Number(process.env.E2E_PORT ?? 3100);
// Workers re-evaluate this file: the data dir is made once by the runner and handed down through
// the environment, so journeys can read what the server wrote there (the mail outbox).
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'parcours-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
export const e2eDataDir = dataDir;
export const baseURL = `http://localhost:${port}`;
/** The server's signing secret: journeys forge an expired token with it (tokens.ts). */
export const e2eJwtSecret = 'e2e-secret-e2e-secret-e2e-secret-e2e';

export default defineConfig({
  testDir: './tests',
  // The golf examples are fetched, not committed: their journeys run with playwright.scorm.config.ts.
  testIgnore: /scorm-courses\.spec\.ts$/,
  outputDir: '../test-results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // The demo first, as `npm start` would seed it into the empty database, then the probe tenant
    // (its own host name, probe.localhost); the server then finds tenants and seeds nothing.
    command:
      'npm run build && npm run import -- content/demo && npm run import -- e2e/fixtures/package-tenant && npm run start -w @parcours/api',
    cwd: '..',
    url: `${baseURL}/api/contexts/current`,
    // The build (web app, server renderer, API) then the demo import: minutes on a busy 2-core machine.
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      JWT_SECRET: e2eJwtSecret,
      // Journeys sign in many times from one address; the limit itself is covered by API tests.
      LOGIN_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
    },
  },
});
