import { defineProject } from 'vitest/config';

// The bench's pure helpers (how a run's figures are computed); the benches themselves are run by
// `npm run bench`, never by the test suite.
export default defineProject({
  test: { name: 'bench', include: ['*.test.ts', 'generate/*.test.ts'] },
});
