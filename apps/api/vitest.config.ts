import { defineProject } from 'vitest/config';

// API suites run against a real database: SQLite by default, PostgreSQL when DATABASE_URL is set.
// Each test file gets its own database (SQLite in memory, or its own PostgreSQL schema).
export default defineProject({
  test: { name: 'api', include: ['test/**/*.test.ts', 'src/**/*.test.ts'], testTimeout: 20000, hookTimeout: 30000 },
});
