import { defineProject } from 'vitest/config';

// A test that asserts nothing fails (issue 40 item 6): it could not fail otherwise.
export default defineProject({
  test: { name: 'domain', include: ['src/**/*.test.ts'], expect: { requireAssertions: true } },
});
