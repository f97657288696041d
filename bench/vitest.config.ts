import { defineProject } from 'vitest/config';

// The bench's pure helpers (how a run's figures are computed); the benches themselves are run by
// `npm run bench`, never by the test suite.
export default defineProject({
  // A test that asserts nothing fails (issue 40 item 6).
  test: { name: 'bench', include: ['*.test.ts', 'generate/*.test.ts'], expect: { requireAssertions: true } },
});
