import { defineProject } from 'vitest/config';

// API suites run against a real database: SQLite by default, PostgreSQL when DATABASE_URL is set.
// Each test file gets its own database (SQLite in memory, or its own PostgreSQL schema).
// Every JSON:API document a test receives is checked against the official schema (test/jsonapi).
export default defineProject({
  test: {
    name: 'api',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    setupFiles: ['test/jsonapi/setup.ts'],
    testTimeout: 20000,
    hookTimeout: 30000,
    // A test that asserts nothing fails (issue 40 item 6): it could not fail otherwise.
    expect: { requireAssertions: true },
  },
});
